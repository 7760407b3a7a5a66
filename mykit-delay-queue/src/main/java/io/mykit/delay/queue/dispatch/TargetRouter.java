package io.mykit.delay.queue.dispatch;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Chooses each topic's delivery target from operator rules: an exact topic name wins, then the longest matching pattern
 * ({@code *} matches any run of characters), then the default. Jobs cannot pick a target themselves.
 */
public class TargetRouter implements RouteLookup {
    private record Rule(String pattern, Pattern regex, DeliveryTarget target) {}

    private final DeliveryTarget defaultTarget;
    private final Map<String, DeliveryTarget> exact = new ConcurrentHashMap<>();
    private final List<Rule> patterns;
    /** Topics are the clients' choice: the cache starts over once this full rather than grow with every topic seen. */
    static final int MAX_CACHED_TOPICS = 4_096;

    private final Map<String, DeliveryTarget> cache = new ConcurrentHashMap<>();

    /** {@code routes}: topic or pattern -> target name; every name must be in {@code targets}. */
    public TargetRouter(String defaultName, Map<String, String> routes, Map<String, DeliveryTarget> targets) {
        this.defaultTarget = require(targets, defaultName);
        routes.forEach((topic, name) -> {
            if (!topic.contains("*")) {
                exact.put(topic, require(targets, name));
            }
        });
        this.patterns = routes.entrySet().stream()
                .filter(e -> e.getKey().contains("*"))
                .map(e -> new Rule(e.getKey(), globToRegex(e.getKey()), require(targets, e.getValue())))
                .sorted(Comparator.comparingInt((Rule r) -> r.pattern().length())
                        .reversed())
                .toList();
    }

    @Override
    public DeliveryTarget route(String topic) {
        DeliveryTarget cached = cache.get(topic);
        if (cached != null) {
            return cached;
        }
        if (cache.size() >= MAX_CACHED_TOPICS) {
            cache.clear();
        }
        return cache.computeIfAbsent(topic, this::resolve);
    }

    /** Topics whose route is cached right now. */
    int cachedTopics() {
        return cache.size();
    }

    private DeliveryTarget resolve(String topic) {
        DeliveryTarget target = exact.get(topic);
        if (target != null) {
            return target;
        }
        return patterns.stream()
                .filter(r -> r.regex().matcher(topic).matches())
                .findFirst()
                .map(Rule::target)
                .orElse(defaultTarget);
    }

    private static Pattern globToRegex(String glob) {
        return Pattern.compile(
                Arrays.stream(glob.split("\\*", -1)).map(Pattern::quote).collect(Collectors.joining(".*")));
    }

    private static DeliveryTarget require(Map<String, DeliveryTarget> targets, String name) {
        DeliveryTarget target = targets.get(name);
        if (target == null) {
            throw new IllegalStateException("mykit.delay.dispatch: target '" + name + "' is not configured");
        }
        return target;
    }
}
