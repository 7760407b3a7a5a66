package io.mykit.delay.config;

import static io.mykit.delay.config.Checks.check;
import static io.mykit.delay.config.Checks.positive;

import java.time.Duration;
import java.util.List;

/** {@code mykit.delay.pull.*}: the HTTP pull consumers. */
public class PullProperties {
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(5);
    /** Half of Tomcat's default max-connections: the other half stays free for pushes and finishes. */
    public static final int DEFAULT_MAX_WAITING_POLLS = 4_096;
    /** Reservation time when a puller gives no ttr. */
    private Duration defaultTtr = Duration.ofSeconds(30);
    /** Longest ttr a puller may ask for. */
    private Duration maxTtr = Duration.ofHours(1);
    /** Longest long-poll a puller may ask for. */
    private Duration maxTimeout = Duration.ofSeconds(30);
    /**
     * How often a node with waiting long-polls reads the hand-over counts (one Redis call) and lets each waiting topic
     * another node handed jobs to since look once: the safety net for a wake-up lost between nodes (Redis pub/sub
     * delivers at most once). Hand-overs wake their polls at once, on any node.
     */
    private Duration pollInterval = DEFAULT_POLL_INTERVAL;
    /** Most long-polls waiting at once on this node, one more is answered 429; a tenant's share without max-polls. */
    private int maxWaitingPolls = DEFAULT_MAX_WAITING_POLLS;

    public Duration getDefaultTtr() {
        return defaultTtr;
    }

    public void setDefaultTtr(Duration defaultTtr) {
        this.defaultTtr = defaultTtr;
    }

    public Duration getMaxTtr() {
        return maxTtr;
    }

    public void setMaxTtr(Duration maxTtr) {
        this.maxTtr = maxTtr;
    }

    public Duration getMaxTimeout() {
        return maxTimeout;
    }

    public void setMaxTimeout(Duration maxTimeout) {
        this.maxTimeout = maxTimeout;
    }

    public Duration getPollInterval() {
        return pollInterval;
    }

    public void setPollInterval(Duration pollInterval) {
        this.pollInterval = pollInterval;
    }

    public int getMaxWaitingPolls() {
        return maxWaitingPolls;
    }

    public void setMaxWaitingPolls(int maxWaitingPolls) {
        this.maxWaitingPolls = maxWaitingPolls;
    }

    void validate(List<String> errors) {
        check(errors, positive(defaultTtr), "mykit.delay.pull.default-ttr must be > 0");
        check(errors, positive(maxTimeout), "mykit.delay.pull.max-timeout must be > 0");
        check(errors, positive(pollInterval), "mykit.delay.pull.poll-interval must be > 0");
        check(errors, maxWaitingPolls >= 1, "mykit.delay.pull.max-waiting-polls must be >= 1");
    }
}
