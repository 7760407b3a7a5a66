package io.mykit.delay.core.observability;

import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.config.RedisProperties;
import io.mykit.delay.core.NodeIdentity;
import io.mykit.delay.core.embedded.EmbeddedStoresPostProcessor;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.core.env.Environment;

/**
 * /actuator/info: version, mode, buckets, whether the stores are the embedded ones and the delivery targets' names for
 * everyone; the node, where the stores, brokers and ZooKeeper are and the key prefix for the admin alone. Addresses
 * only ({@link AddressesOnly}): no user, no password, no URL parameters.
 */
final class GatewayInfoContributor implements InfoContributor {
    private static final String POM_PROPERTIES = "/META-INF/maven/io.mykit.delay/mykit-delay-core/pom.properties";

    /** Keys of the admin's view that others do not get, at any depth of the map. */
    private static final Set<String> ADMIN_ONLY =
            Set.of("node", "address", "keyPrefix", "url", "broker", "nameServer", "zookeeper");

    private final Map<String, Object> gateway;
    private final Map<String, Object> publicView;

    GatewayInfoContributor(DelayProperties properties, Environment environment, NodeIdentity node) {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("version", version());
        info.put("mode", properties.getMode().name().toLowerCase().replace('_', '-'));
        info.put("node", node.id());
        info.put("buckets", properties.getBuckets());
        Map<String, Object> stores = new LinkedHashMap<>();
        RedisProperties redis = properties.getRedis();
        stores.put(
                "redis",
                Map.of(
                        "address",
                                AddressesOnly.of(
                                        redis.isCluster()
                                                ? String.join(",", redis.getClusterNodes())
                                                : redis.getHost() + ":" + redis.getPort()),
                        "keyPrefix", redis.getKeyPrefix(),
                        "embedded", EmbeddedStoresPostProcessor.embeddedRedis(environment)));
        stores.put(
                "journal",
                Map.of(
                        "url", AddressesOnly.of(environment.getProperty("spring.datasource.url", "")),
                        "embedded", EmbeddedStoresPostProcessor.embeddedJournal(environment)));
        info.put("stores", stores);
        info.put("targets", targets(properties));
        if (properties.getMode() != DelayProperties.Mode.STANDALONE) {
            info.put("zookeeper", AddressesOnly.of(properties.getRegistry().getServerList()));
        }
        this.gateway = Map.copyOf(info);
        this.publicView = withoutAdminOnly(gateway);
    }

    @Override
    public void contribute(Info.Builder builder) {
        contribute(builder, AdminCaller.asking());
    }

    void contribute(Info.Builder builder, boolean admin) {
        builder.withDetail("gateway", admin ? gateway : publicView);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withoutAdminOnly(Map<String, ?> view) {
        Map<String, Object> kept = new LinkedHashMap<>();
        view.forEach((key, value) -> {
            if (ADMIN_ONLY.contains(key)) {
                return;
            }
            if (value instanceof Map<?, ?> map) {
                kept.put(key, withoutAdminOnly((Map<String, ?>) map));
            } else if (value instanceof List<?> list) {
                kept.put(
                        key,
                        list.stream()
                                .map(item ->
                                        item instanceof Map<?, ?> map ? withoutAdminOnly((Map<String, ?>) map) : item)
                                .toList());
            } else {
                kept.put(key, value);
            }
        });
        return kept;
    }

    /** The targets routes use, each with the broker it sends to. */
    private static List<Map<String, String>> targets(DelayProperties properties) {
        Set<String> used = new LinkedHashSet<>();
        used.add(properties.getDispatch().getDefaultTarget());
        used.addAll(properties.getDispatch().getRoutes().values());
        List<Map<String, String>> targets = new ArrayList<>();
        for (String name : used) {
            Map<String, String> target = new LinkedHashMap<>();
            target.put("name", name);
            switch (name) {
                case "activemq" ->
                    target.put(
                            "broker", AddressesOnly.of(properties.getActivemq().getBrokerUrl()));
                case "rocketmq" ->
                    target.put(
                            "nameServer",
                            AddressesOnly.each(properties.getRocketmq().getNamesrvAddr(), ";"));
                default -> {}
            }
            target.put(
                    "default",
                    Boolean.toString(name.equals(properties.getDispatch().getDefaultTarget())));
            targets.add(target);
        }
        return targets;
    }

    /** The version Maven wrote into the jar; "unknown" when run from classes outside a jar. */
    private static String version() {
        try (InputStream in = GatewayInfoContributor.class.getResourceAsStream(POM_PROPERTIES)) {
            if (in == null) {
                return "unknown";
            }
            Properties pom = new Properties();
            pom.load(in);
            return pom.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
