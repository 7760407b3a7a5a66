package io.mykit.delay.core.tenants;

import io.mykit.delay.common.tenant.Tenant;
import io.mykit.delay.common.tenant.TenantDirectory;
import io.mykit.delay.common.tenant.TopicPattern;
import io.mykit.delay.config.DelayProperties;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Brokers under tenants: a route ({@code mykit.delay.dispatch.routes}) whose topic pattern two tenants' patterns share
 * would send both tenants' jobs one way, and an explicit destination ({@code mykit.delay.rocketmq.topic-mapping}) that
 * falls in another tenant's topics would deliver one tenant's jobs where the other reads; either refuses the start (and
 * a tenants file that would bring one in is not taken).
 */
public final class TenantRoutes {
    private TenantRoutes() {}

    /** One message per route or destination that crosses tenants, naming both; empty without tenants. */
    public static List<String> problems(DelayProperties properties, TenantDirectory tenants) {
        List<String> errors = new ArrayList<>();
        if (!tenants.enabled()) {
            return errors;
        }
        for (Map.Entry<String, String> route :
                properties.getDispatch().getRoutes().entrySet()) {
            TopicPattern pattern = new TopicPattern(route.getKey());
            List<Tenant> sharing = tenants.tenants().stream()
                    .filter(t -> t.topics().stream().anyMatch(pattern::overlaps))
                    .toList();
            if (sharing.size() > 1) {
                errors.add("mykit.delay.dispatch.routes." + route.getKey() + ": topics of tenants '"
                        + sharing.get(0).name() + "' and '" + sharing.get(1).name()
                        + "' both match it; give each tenant its own routes");
            }
        }
        for (Map.Entry<String, String> mapping :
                properties.getRocketmq().getTopicMapping().entrySet()) {
            for (Tenant owner : tenants.tenants()) {
                if (!owner.allows(mapping.getKey())) {
                    continue;
                }
                for (Tenant other : tenants.tenants()) {
                    if (other != owner && other.allows(mapping.getValue())) {
                        errors.add("mykit.delay.rocketmq.topic-mapping." + mapping.getKey() + ": tenant '"
                                + owner.name() + "' would deliver into " + mapping.getValue()
                                + ", a topic of tenant '" + other.name() + "'");
                    }
                }
            }
        }
        return errors;
    }
}
