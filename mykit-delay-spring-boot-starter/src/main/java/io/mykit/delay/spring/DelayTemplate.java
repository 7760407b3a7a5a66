package io.mykit.delay.spring;

import io.mykit.delay.client.DelayClient;
import io.mykit.delay.client.DelayJob;
import io.mykit.delay.client.JobView;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The producer side of a service in a few words: push a body to a topic after a delay or at a time, cancel, reschedule,
 * look up. Jobs that set no tries or ttl get the service's defaults ({@code mykit.delay.client.default-tries},
 * {@code default-ttl}). Thread-safe; every call is one of {@link DelayClient}'s, with its retries and exceptions.
 *
 * <pre>
 * String id = delayTemplate.push("order-close", "42", Duration.ofMinutes(30));
 * </pre>
 */
public class DelayTemplate {
    private final DelayClient client;
    private final int defaultTries;
    private final Duration defaultTtl;

    /** {@code defaultTries} 0 and {@code defaultTtl} null or zero leave jobs as they are. */
    public DelayTemplate(DelayClient client, int defaultTries, Duration defaultTtl) {
        this.client = Objects.requireNonNull(client, "client");
        this.defaultTries = defaultTries;
        this.defaultTtl = defaultTtl == null ? Duration.ZERO : defaultTtl;
    }

    /** Pushes {@code body} to {@code topic}, due {@code delay} from now; answers the job's id. */
    public String push(String topic, String body, Duration delay) {
        return push(DelayJob.builder(topic).body(body).delay(delay).build());
    }

    /** Pushes {@code body} to {@code topic}, due at {@code dueAt} (a time past is due at once); answers its id. */
    public String push(String topic, String body, Instant dueAt) {
        return push(DelayJob.builder(topic).body(body).dueAt(dueAt).build());
    }

    /** Pushes a job built with {@link DelayJob#builder(String)}; answers its id. A repeated push stores it once. */
    public String push(DelayJob job) {
        return client.push(withDefaults(job));
    }

    /** Pushes up to 1,000 jobs in one transaction; answers their ids in order. */
    public List<String> pushAll(List<DelayJob> jobs) {
        return client.pushAll(jobs.stream().map(this::withDefaults).toList());
    }

    /** Cancels a job still waiting; one handed over already is refused (409). */
    public void cancel(String id) {
        client.cancel(id);
    }

    /** Makes a waiting job due {@code delay} from now; answers its new due time. */
    public Instant reschedule(String id, Duration delay) {
        return client.reschedule(id, delay);
    }

    /** The job and its status ({@code Delay}, {@code Ready}, {@code Finish}, {@code Dead}, ...); empty if unknown. */
    public Optional<JobView> lookup(String id) {
        return client.lookup(id);
    }

    /** The client underneath, for what the template does not cover. */
    public DelayClient client() {
        return client;
    }

    /** The same job, id included, with the defaults where it sets nothing. */
    DelayJob withDefaults(DelayJob job) {
        boolean addTries = job.tries() == 0 && defaultTries > 0;
        boolean addTtl = job.ttl().isZero() && !defaultTtl.isZero();
        if (!addTries && !addTtl) {
            return job;
        }
        DelayJob.Builder copy = DelayJob.builder(job.topic())
                .id(job.id())
                .subtopic(job.subtopic())
                .bizKey(job.bizKey())
                .body(job.body())
                .priority(job.priority())
                .ttl(addTtl ? defaultTtl : job.ttl())
                .tries(addTries ? defaultTries : job.tries());
        if (job.dueAt() != null) {
            copy.dueAt(job.dueAt());
        } else {
            copy.delay(job.delay());
        }
        return copy.build();
    }
}
