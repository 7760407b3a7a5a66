package io.mykit.delay.common.tenant;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TenantDirectoryTest {
    private final Tenant orders =
            new Tenant("orders", List.of("o-old", "o-new"), Tenant.patterns("order-*,pay-timeout"), Tenant.Limits.NONE);
    private final Tenant mail = new Tenant("mail", List.of("m-1"), Tenant.patterns("mail-*"), Tenant.Limits.NONE);

    @Test
    void a_token_names_its_tenant_the_admin_token_the_admin_and_any_other_nobody() {
        TenantDirectory directory = new TenantDirectory(List.of(orders, mail), "adm");
        assertThat(directory.enabled()).isTrue();
        assertThat(directory.holderOf("o-old").tenant()).isSameAs(orders);
        assertThat(directory.holderOf("o-new").tenant()).isSameAs(orders);
        assertThat(directory.holderOf("m-1").tenant()).isSameAs(mail);
        assertThat(directory.holderOf("adm").admin()).isTrue();
        assertThat(directory.holderOf("o-ol").unknown()).isTrue();
        assertThat(directory.holderOf("").unknown()).isTrue();
        assertThat(directory.tokenless()).isEmpty();
    }

    @Test
    void without_an_admin_token_no_token_is_the_admin() {
        TenantDirectory directory = new TenantDirectory(List.of(orders), null);
        assertThat(directory.holderOf("").unknown()).isTrue();
        assertThat(directory.holderOf("o-old").admin()).isFalse();
    }

    @Test
    void a_tenant_allows_only_topics_of_its_patterns() {
        assertThat(orders.allows("order-close")).isTrue();
        assertThat(orders.allows("pay-timeout")).isTrue();
        assertThat(orders.allows("pay-timeout2")).isFalse();
        assertThat(orders.allows("mail-x")).isFalse();
    }

    @Test
    void only_a_default_tenant_without_tokens_takes_calls_without_one() {
        Tenant open = new Tenant(Tenant.DEFAULT, List.of(), Tenant.patterns("legacy-*"), Tenant.Limits.NONE);
        assertThat(new TenantDirectory(List.of(orders, open), null).tokenless()).contains(open);
        Tenant withToken = new Tenant(Tenant.DEFAULT, List.of("d"), Tenant.patterns("legacy-*"), Tenant.Limits.NONE);
        assertThat(new TenantDirectory(List.of(withToken), null).tokenless()).isEmpty();
        assertThat(TenantDirectory.NONE.enabled()).isFalse();
    }
}
