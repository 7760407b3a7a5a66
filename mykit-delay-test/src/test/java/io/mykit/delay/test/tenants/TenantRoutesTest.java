package io.mykit.delay.test.tenants;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.tenant.TenantDirectory;
import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.config.TenantProperties;
import io.mykit.delay.config.Tenants;
import io.mykit.delay.core.tenants.TenantRoutes;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Broker routes under tenants: none may carry two tenants' topics, nor deliver into another tenant's topic. */
class TenantRoutesTest {

    private static DelayProperties withTenants() {
        DelayProperties properties = new DelayProperties();
        properties.getTenants().put("orders", tenant("order-*,pay-timeout", "o"));
        properties.getTenants().put("mail", tenant("mail-*", "m"));
        return properties;
    }

    private static TenantProperties tenant(String topics, String token) {
        TenantProperties tenant = new TenantProperties();
        tenant.setTopics(topics);
        tenant.setToken(token);
        return tenant;
    }

    private static List<String> problems(DelayProperties properties) {
        TenantDirectory directory = Tenants.directory(properties.getTenants(), null);
        return TenantRoutes.problems(properties, directory);
    }

    @Test
    void a_route_of_one_tenants_topics_is_fine() {
        DelayProperties properties = withTenants();
        properties.getDispatch().getRoutes().put("order-*", "rocketmq");
        properties.getDispatch().getRoutes().put("mail-urgent", "activemq");
        properties.getRocketmq().getTopicMapping().put("order-close", "order-close-v2");
        assertThat(problems(properties)).isEmpty();
    }

    @Test
    void a_route_two_tenants_topics_match_refuses_the_start_naming_both() {
        DelayProperties properties = withTenants();
        properties.getDispatch().getRoutes().put("*-close", "rocketmq");
        assertThat(problems(properties))
                .singleElement()
                .asString()
                .contains("mykit.delay.dispatch.routes.*-close")
                .contains("'orders'")
                .contains("'mail'");
    }

    @Test
    void a_destination_in_another_tenants_topics_refuses_the_start_naming_both() {
        DelayProperties properties = withTenants();
        properties.getRocketmq().getTopicMapping().put("order-close", "mail-inbox");
        assertThat(problems(properties))
                .singleElement()
                .asString()
                .contains("mykit.delay.rocketmq.topic-mapping.order-close")
                .contains("'orders'")
                .contains("'mail'");
    }

    @Test
    void without_tenants_routes_are_not_looked_at() {
        DelayProperties properties = new DelayProperties();
        properties.getDispatch().getRoutes().put("*", "log");
        assertThat(TenantRoutes.problems(properties, TenantDirectory.NONE)).isEmpty();
    }
}
