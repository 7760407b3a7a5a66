package io.mykit.delay.core.observability;

import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.core.NodeIdentity;
import io.mykit.delay.core.embedded.EmbeddedStoresPostProcessor;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.core.env.Environment;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * /actuator/info: version, mode, node, buckets, where the stores are (and whether they are the embedded ones) and the
 * delivery targets. Addresses only: no password, no JDBC URL parameters (they may carry credentials).
 */
final class GatewayInfoContributor implements InfoContributor {
    private static final String POM_PROPERTIES = "/META-INF/maven/io.mykit.delay/mykit-delay-core/pom.properties";

    private final Map<String, Object> gateway;

    GatewayInfoContributor(DelayProperties properties, Environment environment, NodeIdentity node) {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("version", version());
        info.put("mode", properties.getMode().name().toLowerCase().replace('_', '-'));
        info.put("node", node.id());
        info.put("buckets", properties.getBuckets());
        Map<String, Object> stores = new LinkedHashMap<>();
        DelayProperties.Redis redis = properties.getRedis();
        stores.put("redis", Map.of(
                "address", redis.isCluster() ? String.join(",", redis.getClusterNodes())
                        : redis.getHost() + ":" + redis.getPort(),
                "keyPrefix", redis.getKeyPrefix(),
                "embedded", EmbeddedStoresPostProcessor.embeddedRedis(environment)));
        stores.put("journal", Map.of(
                "url", withoutParameters(environment.getProperty("spring.datasource.url", "")),
                "embedded", EmbeddedStoresPostProcessor.embeddedJournal(environment)));
        info.put("stores", stores);
        info.put("targets", targets(properties));
        if (properties.getMode() != DelayProperties.Mode.STANDALONE) {
            info.put("zookeeper", properties.getRegistry().getServerList());
        }
        this.gateway = Map.copyOf(info);
    }

    @Override
    public void contribute(Info.Builder builder) {
        builder.withDetail("gateway", gateway);
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
                case "activemq" -> target.put("broker", withoutParameters(properties.getActivemq().getBrokerUrl()));
                case "rocketmq" -> target.put("nameServer", properties.getRocketmq().getNamesrvAddr());
                default -> { }
            }
            target.put("default", Boolean.toString(name.equals(properties.getDispatch().getDefaultTarget())));
            targets.add(target);
        }
        return targets;
    }

    static String withoutParameters(String url) {
        if (url == null) {
            return "";
        }
        int cut = url.length();
        for (char c : new char[] {'?', ';'}) {
            int at = url.indexOf(c);
            if (at >= 0) {
                cut = Math.min(cut, at);
            }
        }
        return url.substring(0, cut);
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
