package io.mykit.delay.core.observability;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.core.NodeIdentity;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.actuate.info.Info;
import org.springframework.mock.env.MockEnvironment;

/** /actuator/info shows where the stores and brokers are, never a user or password, in any URL form drivers take. */
class GatewayInfoCredentialsTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "jdbc:mysql://127.0.0.1:3306/mykit | jdbc:mysql://127.0.0.1:3306/mykit",
                "jdbc:mysql://u:s3cret@db.example:3306/mykit | jdbc:mysql://db.example:3306/mykit",
                "jdbc:mysql://u:s3c@ret@db.example/mykit | jdbc:mysql://db.example/mykit",
                "jdbc:mysql://u:s3c;ret@db.example/mykit | jdbc:mysql://db.example/mykit",
                "jdbc:mariadb://u:s3cret@a:3306,b:3306/mykit?useSSL=true | jdbc:mariadb://a:3306,b:3306/mykit",
                "jdbc:mysql://db.example/mykit?user=u&password=s3cret | jdbc:mysql://db.example/mykit",
                "jdbc:sqlserver://db.example;user=u;password=s3cret | jdbc:sqlserver://db.example",
                "jdbc:h2:file:./data/mykit;USER=sa;PASSWORD=s3cret | jdbc:h2:file:./data/mykit",
                "jdbc:mysql://(host=db.example,user=u,password=s3cret)/mykit | jdbc:mysql:[redacted]",
                "jdbc:mysql://address=(host=db.example)(password=s3cret)/mykit | jdbc:mysql:[redacted]",
                "jdbc:oracle:thin:u/s3cret@db.example:1521:orcl | jdbc:oracle:[redacted]",
                "failover:(tcp://u:s3cret@a:61616,tcp://b:61616)?randomize=false | "
                        + "failover:(tcp://a:61616,tcp://b:61616)",
                "tcp://a:61616?jms.password=s3cret | tcp://a:61616",
                "u:s3cret@a:2181 | [redacted]",
                "a:2181,b:2181/mykit | a:2181,b:2181/mykit"
            })
    void a_url_keeps_where_it_points_and_loses_its_credentials(String url, String shown) {
        assertThat(AddressesOnly.of(url))
                .isEqualTo(shown)
                .doesNotContain("s3cret")
                .doesNotContain("u:");
    }

    @Test
    void name_server_lists_keep_every_entry() {
        assertThat(AddressesOnly.each("a:9876;b:9876", ";")).isEqualTo("a:9876;b:9876");
    }

    @Test
    void info_shows_no_credential_of_the_journal_or_broker_urls() {
        DelayProperties properties = new DelayProperties();
        properties.getDispatch().setDefaultTarget("activemq");
        properties.getActivemq().setBrokerUrl("tcp://mq:s3cret@mq.example:61616?jms.password=s3cret");
        MockEnvironment environment = new MockEnvironment()
                .withProperty("spring.datasource.url", "jdbc:mysql://u:s3cret@db.example:3306/mykit");
        Info.Builder builder = new Info.Builder();
        new GatewayInfoContributor(properties, environment, new NodeIdentity("n1", "http://127.0.0.1:8080"))
                .contribute(builder, true);
        Map<String, Object> details = builder.build().getDetails();
        assertThat(details.toString())
                .doesNotContain("s3cret")
                .contains("db.example:3306/mykit")
                .contains("mq.example:61616");
    }
}
