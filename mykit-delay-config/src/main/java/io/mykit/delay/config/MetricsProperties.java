package io.mykit.delay.config;

import static io.mykit.delay.config.Checks.check;
import static io.mykit.delay.config.Checks.positive;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** {@code mykit.delay.metrics.*}: metrics at /actuator/prometheus. */
public class MetricsProperties {
    /** Topics that get their own topic tag; every other topic is tagged "other" (keeps the series count bounded). */
    private List<String> topics = new ArrayList<>();
    /** How often the gauges that need Redis (pending, in flight, ready) are sampled; scrapes read the last sample. */
    private Duration sampleInterval = Duration.ofSeconds(5);

    public List<String> getTopics() {
        return topics;
    }

    public void setTopics(List<String> topics) {
        this.topics = topics;
    }

    public Duration getSampleInterval() {
        return sampleInterval;
    }

    public void setSampleInterval(Duration sampleInterval) {
        this.sampleInterval = sampleInterval;
    }

    void validate(List<String> errors) {
        check(errors, positive(sampleInterval), "mykit.delay.metrics.sample-interval must be > 0");
    }
}
