package io.mykit.delay.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.mykit.delay.common.tenant.TenantDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TenantsTest {
    private static final int MAX_FILE_BYTES = 1 << 20;

    @TempDir
    Path dir;

    private static TenantProperties tenant(String topics, String... tokens) {
        TenantProperties tenant = new TenantProperties();
        tenant.setTopics(topics);
        tenant.setTokens(List.of(tokens));
        return tenant;
    }

    @Test
    void every_bad_tenant_setting_is_named() {
        TenantProperties noTopics = tenant(" , ", "t1");
        TenantProperties noToken = tenant("b-*");
        TenantProperties shared = tenant("c-*", "t1");
        shared.setPushRate(-1);
        shared.setMaxPending(-2);
        shared.setMaxPolls(-3);
        shared.setMaxStreams(-4);
        TenantProperties admin = tenant("d-*", "adm");
        List<String> problems = Tenants.problems(
                Map.of("a", noTopics, "b", noToken, "c", shared, "d", admin, "bad name", tenant("x", "t9")), "adm");
        assertThat(String.join("\n", problems))
                .contains("mykit.delay.tenants.a.topics: at least one topic pattern is required")
                .contains("mykit.delay.tenants.b.tokens: a token is required")
                .contains("a token of tenant '")
                .contains("mykit.delay.tenants.c.push-rate must be >= 0")
                .contains("mykit.delay.tenants.c.max-pending must be >= 0")
                .contains("mykit.delay.tenants.c.max-polls must be >= 0")
                .contains("mykit.delay.tenants.c.max-streams must be >= 0")
                .contains("mykit.delay.tenants.d.tokens: a tenant's token must not be the admin token")
                .contains("mykit.delay.tenants.bad name: a tenant name is");
    }

    @Test
    void only_the_default_tenant_may_go_without_a_token() {
        assertThat(Tenants.problems(Map.of("default", tenant("legacy-*")), null))
                .isEmpty();
    }

    @Test
    void the_file_has_the_configuration_keys_and_lists_of_tokens_either_way() throws Exception {
        Path file = dir.resolve("tenants.properties");
        Files.writeString(file, """
                mykit.delay.tenants.orders.tokens=o-old, o-new
                mykit.delay.tenants.orders.topics=order-*,pay-timeout
                mykit.delay.tenants.orders.push-rate=50
                mykit.delay.tenants.orders.max-pending=1000
                mykit.delay.tenants.orders.max-polls=4
                mykit.delay.tenants.orders.max-streams=3
                mykit.delay.tenants.mail.tokens[0]=m-1
                mykit.delay.tenants.mail.tokens[1]=m-2
                mykit.delay.tenants.mail.token=m-3
                mykit.delay.tenants.mail.topics=mail-*
                """);
        Map<String, TenantProperties> read = TenantsFile.read(file);
        assertThat(read.get("orders").allTokens()).containsExactly("o-old", "o-new");
        assertThat(read.get("orders").getPushRate()).isEqualTo(50);
        assertThat(read.get("orders").getMaxPending()).isEqualTo(1000);
        assertThat(read.get("orders").getMaxPolls()).isEqualTo(4);
        assertThat(read.get("orders").getMaxStreams()).isEqualTo(3);
        assertThat(read.get("mail").allTokens()).containsExactly("m-1", "m-2", "m-3");
        TenantDirectory directory = Tenants.directory(read, null);
        assertThat(directory.holderOf("m-2").tenant().name()).isEqualTo("mail");
        assertThat(directory.holderOf("o-new").tenant().allows("pay-timeout")).isTrue();
        assertThat(directory.holderOf("o-new").tenant().limits().maxStreams()).isEqualTo(3);
    }

    @Test
    void a_misspelt_key_or_number_makes_the_file_bad() throws Exception {
        Path file = dir.resolve("tenants.properties");
        Files.writeString(file, """
                mykit.delay.tenants.orders.tokens=o
                mykit.delay.tenants.orders.topcs=order-*
                mykit.delay.tenants.orders.max-polls=four
                """);
        assertThatThrownBy(() -> TenantsFile.read(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown key mykit.delay.tenants.orders.topcs")
                .hasMessageContaining("mykit.delay.tenants.orders.max-polls is not a number");
    }

    @Test
    void the_start_up_check_reads_the_tenants_file_too() throws Exception {
        Path file = dir.resolve("tenants.properties");
        Files.writeString(file, "mykit.delay.tenants.orders.topics=order-*\n");
        DelayProperties properties = new DelayProperties();
        properties.getRedis().setHost("127.0.0.1");
        properties.setTenantsFile(file);
        assertThatThrownBy(properties::validate).hasMessageContaining("mykit.delay.tenants.orders.tokens");
        properties.setTenantsFile(dir.resolve("missing.properties"));
        assertThatThrownBy(properties::validate).hasMessageContaining("mykit.delay.tenants-file");
    }

    @Test
    void two_tenants_whose_patterns_share_a_topic_are_refused_naming_both() {
        List<String> problems = Tenants.problems(
                Map.of("orders", tenant("order-*,pay-timeout", "t1"), "closers", tenant("*-close", "t2")), null);
        assertThat(problems)
                .containsExactly("mykit.delay.tenants.closers.topics: pattern '*-close' of tenant 'closers' and"
                        + " pattern 'order-*' of tenant 'orders' match the same topics; a topic belongs to one"
                        + " tenant only");
        assertThat(Tenants.problems(Map.of("orders", tenant("order-*", "t1"), "mail", tenant("mail-*", "t2")), null))
                .isEmpty();
        assertThat(Tenants.problems(Map.of("default", tenant("*"), "orders", tenant("order-*", "t1")), null))
                .as("the tokenless default tenant too: a caller without a token would read the other's jobs")
                .hasSize(1);
    }

    @Test
    void a_wrapped_line_holding_a_token_is_named_by_its_line_never_shown() throws Exception {
        Path file = dir.resolve("tenants.properties");
        Files.writeString(file, """
                # orders
                mykit.delay.tenants.orders.topics=order-*
                mykit.delay.tenants.orders.token=
                wrapped-s3cret-token-value
                mykit.delay.tenants.orders.max-polls=wrapped-s3cret-2
                mykit.delay.tenants.orders.tokens[x]=wrapped-s3cret-3
                """);
        assertThatThrownBy(() -> TenantsFile.read(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 4: not a key of the tenants file")
                .hasMessageContaining("line 5: mykit.delay.tenants.orders.max-polls is not a number")
                .hasMessageContaining("line 6: unknown key mykit.delay.tenants.orders.tokens[x]")
                .hasMessageNotContaining("s3cret");
    }

    @Test
    void only_a_regular_file_is_read_and_only_up_to_its_size_cap() throws Exception {
        Path fifo = dir.resolve("tenants.fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mkfifo.waitFor()).isZero();
        // a FIFO nobody writes to would block a read for ever: refused before it is opened
        assertTimeoutPreemptively(
                Duration.ofSeconds(30),
                () -> assertThatThrownBy(() -> TenantsFile.read(fifo))
                        .isInstanceOf(IOException.class)
                        .hasMessageContaining("not a regular file"));
        assertThatThrownBy(() -> TenantsFile.read(dir))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("not a regular file");
        Path huge = dir.resolve("huge.properties");
        Files.write(huge, new byte[MAX_FILE_BYTES + 1]);
        assertThatThrownBy(() -> TenantsFile.read(huge))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("larger than " + MAX_FILE_BYTES + " bytes");
    }
}
