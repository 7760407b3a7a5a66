package io.mykit.delay.core.compat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The original mykit-delay's settings under this gateway's names. Pure: it reads through the functions it is given and
 * answers what to add (below every other source), what to override (above them) and what to tell the user.
 *
 * <pre>
 * default.cq / -Dio.mykit.delay.queue.core.ConsumeQueueProvider / properties/starter.properties
 *        rocketmqCQ | activemqCQ | consoleCQ      -> mykit.delay.dispatch.default-target rocketmq | activemq | log
 * spring.data.redis.* (Boot 3), then spring.redis.* (the original's):
 *        host (default localhost), port, password, database
 *                                                 -> mykit.delay.redis.host, port, password, database
 *        cluster.nodes (list)                     -> mykit.delay.redis.cluster-nodes
 * mykit.delay.registry.enable=true                -> mykit.delay.mode=master-slave
 * mykit.delay.rqueue.bucketSize                   -> mykit.delay.buckets
 * spring.datasource.type not on the classpath     -> HikariCP (overridden, with a warning)
 * logging.config with an unset placeholder or a missing file -> Spring Boot's default logging (overridden, warning)
 * </pre>
 */
public final class OriginalSettings {
    static final String DEFAULT_TARGET = "mykit.delay.dispatch.default-target";
    static final String PROVIDER_PROPERTY = "io.mykit.delay.queue.core.ConsumeQueueProvider";
    static final String DEFAULT_CQ = "default.cq";
    private static final Map<String, String> SINKS =
            Map.of("rocketmqcq", "rocketmq", "activemqcq", "activemq", "consolecq", "log");
    private static final List<String> REDIS_PREFIXES = List.of("spring.data.redis", "spring.redis");
    private static final String HIKARI = "com.zaxxer.hikari.HikariDataSource";

    /** A properties file and where it was found. */
    public record Located(String description, Map<String, String> values) {}

    /** What to add below every source, what to put above them, and one line per decision for the log. */
    public record Result(Map<String, String> translated, Map<String, String> overrides, List<String> notes) {}

    private OriginalSettings() {}

    /**
     * @param value a setting's value, as the environment resolves it
     * @param list a list setting's values (indexed or comma-separated)
     * @param starter the original's starter.properties, where one is found
     * @param loadable whether a class is on the classpath
     * @param present whether this gateway's own setting is given anywhere
     * @param anyUnder whether any setting starts with this prefix and a dot
     */
    public static Result translate(
            Function<String, Optional<String>> value,
            Function<String, List<String>> list,
            Optional<Located> starter,
            Predicate<String> loadable,
            Predicate<String> present,
            Predicate<String> anyUnder) {
        Map<String, String> translated = new LinkedHashMap<>();
        Map<String, String> overrides = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        sink(value, starter, present, translated, notes);
        redis(value, list, present, anyUnder, translated, notes);
        if (value.apply("mykit.delay.registry.enable")
                        .map(Boolean::parseBoolean)
                        .orElse(false)
                && !present.test("mykit.delay.mode")) {
            translated.put("mykit.delay.mode", "master-slave");
            notes.add("mykit.delay.registry.enable=true (the original's ZooKeeper master/slave) -> mykit.delay.mode="
                    + "master-slave");
        }
        value.apply("mykit.delay.rqueue.bucketSize")
                .filter(v -> !present.test("mykit.delay.buckets"))
                .ifPresent(size -> {
                    translated.put("mykit.delay.buckets", size);
                    notes.add("mykit.delay.rqueue.bucketSize=" + size + " -> mykit.delay.buckets=" + size);
                });
        value.apply("spring.datasource.type")
                .filter(type -> !loadable.test(type))
                .ifPresent(type -> {
                    overrides.put("spring.datasource.type", HIKARI);
                    notes.add("spring.datasource.type=" + type + " is not on this gateway's classpath: using HikariCP; "
                            + "remove the key (the pool's own keys under spring.datasource are ignored)");
                });
        value.apply("logging.config")
                .filter(OriginalSettings::unusableLogConfig)
                .ifPresent(config -> {
                    overrides.put("logging.config", "");
                    notes.add("logging.config=" + config + " cannot be used (an unset placeholder or a missing file): "
                            + "logging with Spring Boot's defaults; set the placeholder or remove the key");
                });
        return new Result(translated, overrides, notes);
    }

    private static void sink(
            Function<String, Optional<String>> value,
            Optional<Located> starter,
            Predicate<String> present,
            Map<String, String> translated,
            List<String> notes) {
        String key;
        String chosen;
        String origin;
        if (value.apply(PROVIDER_PROPERTY).isPresent()) {
            key = PROVIDER_PROPERTY;
            chosen = value.apply(PROVIDER_PROPERTY).get();
            origin = "system property";
        } else if (value.apply(DEFAULT_CQ).isPresent()) {
            key = DEFAULT_CQ;
            chosen = value.apply(DEFAULT_CQ).get();
            origin = "settings";
        } else if (starter.isPresent() && starter.get().values().containsKey(DEFAULT_CQ)) {
            key = DEFAULT_CQ;
            chosen = starter.get().values().get(DEFAULT_CQ);
            origin = starter.get().description();
        } else {
            return;
        }
        String target = SINKS.get(chosen.trim().toLowerCase(Locale.ROOT));
        if (target == null) {
            throw new IllegalStateException(key + "=" + chosen + " (" + origin + ") is not one of rocketmqCQ, "
                    + "activemqCQ, consoleCQ; fix it, or set " + DEFAULT_TARGET + " (pull, rocketmq, activemq, log)");
        }
        if (present.test(DEFAULT_TARGET)) {
            notes.add(DEFAULT_TARGET + " is set: it wins over the original's " + key + "=" + chosen + " (" + origin
                    + ")");
            return;
        }
        translated.put(DEFAULT_TARGET, target);
        notes.add("due jobs of unrouted topics go to '" + target + "': the original's " + key + "=" + chosen + " ("
                + origin + ")");
    }

    private static void redis(
            Function<String, Optional<String>> value,
            Function<String, List<String>> list,
            Predicate<String> present,
            Predicate<String> anyUnder,
            Map<String, String> translated,
            List<String> notes) {
        if (present.test("mykit.delay.redis.host") || present.test("mykit.delay.redis.cluster-nodes")) {
            return;
        }
        for (String prefix : REDIS_PREFIXES) {
            List<String> nodes = list.apply(prefix + ".cluster.nodes");
            if (!nodes.isEmpty()) {
                translated.put("mykit.delay.redis.cluster-nodes", String.join(",", nodes));
                copy(value, present, prefix + ".password", "mykit.delay.redis.password", translated);
                notes.add(prefix + ".cluster.nodes -> mykit.delay.redis.cluster-nodes=" + String.join(",", nodes));
                value.apply(prefix + ".database")
                        .filter(db -> !db.trim().equals("0"))
                        .ifPresent(db -> notes.add(
                                prefix + ".database=" + db + " is ignored: a Redis Cluster has database 0 only"));
                return;
            }
            List<String> keys = List.of("host", "port", "password", "database");
            // any of its settings (a timeout, a pool) means a Redis was meant: never the embedded one instead
            if (anyUnder.test(prefix)
                    || keys.stream().anyMatch(k -> value.apply(prefix + "." + k).isPresent())) {
                // Spring's own default host when only a port or a password is given
                translated.put(
                        "mykit.delay.redis.host", value.apply(prefix + ".host").orElse("localhost"));
                for (String k : keys.subList(1, keys.size())) {
                    copy(value, present, prefix + "." + k, "mykit.delay.redis." + k, translated);
                }
                notes.add(prefix + ".* -> Redis " + translated.get("mykit.delay.redis.host")
                        + value.apply(prefix + ".port").map(p -> ":" + p).orElse("")
                        + value.apply(prefix + ".database")
                                .map(d -> " database " + d)
                                .orElse(""));
                return;
            }
        }
    }

    private static void copy(
            Function<String, Optional<String>> value,
            Predicate<String> present,
            String from,
            String to,
            Map<String, String> translated) {
        if (!present.test(to)) {
            value.apply(from).ifPresent(v -> translated.put(to, v));
        }
    }

    private static boolean unusableLogConfig(String config) {
        if (config.isBlank()) {
            return false;
        }
        if (config.contains("${")) {
            return true;
        }
        String path = config.startsWith("file:") ? config.substring("file:".length()) : null;
        return path != null && !java.nio.file.Files.exists(java.nio.file.Path.of(path));
    }
}
