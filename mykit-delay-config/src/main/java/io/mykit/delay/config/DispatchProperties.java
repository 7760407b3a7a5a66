package io.mykit.delay.config;

import static io.mykit.delay.config.Checks.check;
import static io.mykit.delay.config.Checks.positive;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code mykit.delay.dispatch.*}: where due jobs go, and how failed sends are retried. */
public class DispatchProperties {
    public static final String PULL = "pull";
    public static final String ROCKETMQ = "rocketmq";
    public static final String ACTIVEMQ = "activemq";
    public static final String LOG = "log";
    public static final List<String> TARGETS = List.of(PULL, ROCKETMQ, ACTIVEMQ, LOG);

    /** Target of topics no route names: pull, rocketmq, activemq or log. */
    private String defaultTarget = PULL;
    /** Topic (exact, or a pattern with *) to target; exact names win over patterns, longer patterns over shorter. */
    private Map<String, String> routes = new LinkedHashMap<>();
    /** First retry delay after a failed send; doubles per try. */
    private Duration retryBase = Duration.ofSeconds(1);
    /** Longest retry delay. */
    private Duration retryCap = Duration.ofMinutes(5);
    /** Threads sending to brokers in parallel (a slow send holds one of them, not a bucket). */
    private int senders = 8;
    /** Most jobs a broker target holds waiting for its senders. */
    private int backlog = 10_000;
    /**
     * How long the broker may answer nothing at all while a target's backlog is full before the target counts as hung:
     * hand-overs then fail at once (retried with backoff) until a batch finishes, instead of holding the bucket timers
     * other topics share. While the broker answers, a timer waits for room (back-pressure).
     */
    private Duration backlogWait = Duration.ofSeconds(2);
    /** How long a stop waits for broker senders; then their clients close and jobs still held stay in flight. */
    private Duration stopWait = Duration.ofSeconds(10);

    public String getDefaultTarget() {
        return defaultTarget;
    }

    public void setDefaultTarget(String defaultTarget) {
        this.defaultTarget = defaultTarget;
    }

    public Map<String, String> getRoutes() {
        return routes;
    }

    public void setRoutes(Map<String, String> routes) {
        this.routes = routes;
    }

    public Duration getRetryBase() {
        return retryBase;
    }

    public void setRetryBase(Duration retryBase) {
        this.retryBase = retryBase;
    }

    public Duration getRetryCap() {
        return retryCap;
    }

    public void setRetryCap(Duration retryCap) {
        this.retryCap = retryCap;
    }

    public int getSenders() {
        return senders;
    }

    public void setSenders(int senders) {
        this.senders = senders;
    }

    public int getBacklog() {
        return backlog;
    }

    public void setBacklog(int backlog) {
        this.backlog = backlog;
    }

    public Duration getBacklogWait() {
        return backlogWait;
    }

    public void setBacklogWait(Duration backlogWait) {
        this.backlogWait = backlogWait;
    }

    public Duration getStopWait() {
        return stopWait;
    }

    public void setStopWait(Duration stopWait) {
        this.stopWait = stopWait;
    }

    /** The targets the default and the routes name, default first. */
    public Set<String> usedTargets() {
        Set<String> used = new LinkedHashSet<>();
        used.add(defaultTarget);
        used.addAll(routes.values());
        return used;
    }

    void validate(List<String> errors) {
        for (String target : usedTargets()) {
            check(
                    errors,
                    TARGETS.contains(target),
                    "mykit.delay.dispatch: unknown target '" + target + "' (known: " + String.join(", ", TARGETS)
                            + ")");
        }
        routes.keySet()
                .forEach(pattern -> check(
                        errors,
                        pattern.matches("[A-Za-z0-9_.*\\-]{1,128}"),
                        "mykit.delay.dispatch.routes: bad topic pattern '" + pattern
                                + "' (letters, digits, _ . - and *)"));
        check(errors, positive(retryBase), "mykit.delay.dispatch.retry-base must be > 0");
        check(errors, positive(retryCap), "mykit.delay.dispatch.retry-cap must be > 0");
        check(errors, senders >= 1, "mykit.delay.dispatch.senders must be >= 1");
        check(errors, backlog >= 1, "mykit.delay.dispatch.backlog must be >= 1");
        check(
                errors,
                backlogWait != null && !backlogWait.isNegative() && backlogWait.toMillis() <= 60_000,
                "mykit.delay.dispatch.backlog-wait must be 0..60s");
        check(
                errors,
                stopWait != null && !stopWait.isNegative() && stopWait.toMillis() <= 300_000,
                "mykit.delay.dispatch.stop-wait must be 0..5m");
    }
}
