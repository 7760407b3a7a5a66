package io.mykit.delay.test.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.dispatch.pull.PullTarget;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.store.DelayStore;
import io.mykit.delay.test.support.PrefixedStore;
import io.mykit.delay.test.support.StoreProbes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A reservation in one bucket says whether it left the bucket's ready list empty, and a single pull that takes a
 * bucket's last job makes the next look skip that bucket (the shared Redis, a key prefix per test). Before, each
 * delivered job cost the next GET one round trip to a list that was already empty (issue #14). The entries that
 * finishes and cancels leave in a ready list are dropped once they are half of it, or as a reservation skips them.
 */
class ReserveDrainedTest {
    private static final int BUCKETS = 4;
    private static final int BUCKET = 2;
    private static final String TOPIC = "drained";
    private static final long TTR = 60_000;

    @RegisterExtension
    static final PrefixedStore redis = new PrefixedStore("drained", BUCKETS);

    @Test
    void a_reservation_tells_whether_it_emptied_the_ready_list() {
        List<Job> due = dueInBucket(3);
        redis.store().add(due);
        List<Job> pumped = redis.store()
                .pumpDue(BUCKET, System.currentTimeMillis(), 100, TTR)
                .jobs();
        assertThat(pumped).hasSize(3);
        assertThat(redis.store()
                        .toReady(BUCKET, TOPIC, pumped.stream().map(Job::getId).toList()))
                .isEqualTo(3);

        DelayStore.Reservation first = redis.store().reserveFrom(BUCKET, TOPIC, TTR, 1);
        DelayStore.Reservation second = redis.store().reserveFrom(BUCKET, TOPIC, TTR, 1);
        DelayStore.Reservation third = redis.store().reserveFrom(BUCKET, TOPIC, TTR, 1);
        DelayStore.Reservation fourth = redis.store().reserveFrom(BUCKET, TOPIC, TTR, 1);

        assertThat(first.jobs())
                .extracting(Job::getId)
                .containsExactly(due.get(0).getId());
        assertThat(first.drained()).isFalse();
        assertThat(second.jobs())
                .extracting(Job::getId)
                .containsExactly(due.get(1).getId());
        assertThat(second.drained()).isFalse();
        assertThat(third.jobs())
                .extracting(Job::getId)
                .containsExactly(due.get(2).getId());
        assertThat(third.drained()).isTrue();
        assertThat(fourth.jobs()).isEmpty();
        assertThat(fourth.drained()).isTrue();
        // the length at the end of the reply is not taken for a job, and attempts still count from the reservations
        assertThat(third.jobs().get(0).getAttempts()).isZero();
        assertThat(redis.store().reserveFrom(BUCKET, TOPIC, TTR, 5).jobs()).isEmpty();
    }

    @Test
    void a_pull_that_takes_a_buckets_last_job_leaves_no_empty_look_behind() throws Exception {
        AtomicInteger emptyBucketLooks = new AtomicInteger();
        DelayStore counting = StoreProbes.observed(redis.store(), (method, result) -> {
            if (method.equals("reserveFrom")
                    && ((DelayStore.Reservation) result).jobs().isEmpty()) {
                emptyBucketLooks.incrementAndGet();
            }
        });
        StateChangeWriter states = new StateChangeWriter(StoreProbes.nowhere(), 100, 0);
        states.start();
        try (PullTarget pull = new PullTarget(counting, states, Clock.systemUTC(), 100)) {
            List<Job> due = dueInBucket(1);
            redis.store().add(due);
            List<Job> pumped = redis.store()
                    .pumpDue(BUCKET, System.currentTimeMillis(), 100, TTR)
                    .jobs();
            pull.deliver(BUCKET, pumped);

            assertThat(pull.reserve(TOPIC, 1, TTR, 0))
                    .extracting(Job::getId)
                    .containsExactly(due.get(0).getId());
            assertThat(pull.reserve(TOPIC, 1, TTR, 0)).isEmpty();

            assertThat(emptyBucketLooks)
                    .as("one-bucket reservations that found nothing")
                    .hasValue(0);
        } finally {
            states.close();
        }
    }

    @Test
    void ready_entries_of_ended_jobs_are_dropped_once_they_are_half_of_their_list() {
        List<String> ids = readyInBucket(10);
        String list = redis.keys().ready(BUCKET, TOPIC);
        for (int i = 0; i < 4; i++) {
            assertThat(redis.store().delete(ids.get(i))).isEqualTo(DelayStore.RemoveResult.REMOVED);
        }
        assertThat(redis.client().llen(list))
                .as("4 of 10 entries left by cancels")
                .isEqualTo(10);
        redis.store().delete(ids.get(4));
        assertThat(redis.client().lrange(list, 0, -1))
                .as("half left: the live ones stay, in order")
                .isEqualTo(ids.subList(5, 10));

        // a topic nobody pulls keeps nothing once its ready jobs are finished or cancelled
        redis.store().finishAll(ids.subList(5, 10), System.currentTimeMillis());
        assertThat(redis.client().exists(list)).isFalse();
        assertThat(redis.client().hkeys(redis.keys().counts(BUCKET))).noneMatch(field -> field.startsWith("x:"));
    }

    @Test
    void entries_a_reservation_skips_are_no_longer_counted_as_left_behind() {
        List<String> ids = readyInBucket(6);
        redis.store().delete(ids.get(0));
        redis.store().delete(ids.get(3));
        assertThat(redis.store().reserveFrom(BUCKET, TOPIC, TTR, 10).jobs())
                .extracting(Job::getId)
                .containsExactly(ids.get(1), ids.get(2), ids.get(4), ids.get(5));
        assertThat(redis.client().hkeys(redis.keys().counts(BUCKET))).noneMatch(field -> field.startsWith("x:"));
    }

    /** {@code n} jobs of the topic in {@link #BUCKET}'s ready list, in id order. */
    private List<String> readyInBucket(int n) {
        List<Job> due = dueInBucket(n);
        redis.store().add(due);
        List<String> ids = redis.store().pumpDue(BUCKET, System.currentTimeMillis(), 100, TTR).jobs().stream()
                .map(Job::getId)
                .toList();
        assertThat(redis.store().toReady(BUCKET, TOPIC, ids)).isEqualTo(n);
        return ids;
    }

    /** {@code n} jobs of the topic, due already, whose ids fall in {@link #BUCKET}, in id order. */
    private List<Job> dueInBucket(int n) {
        List<Job> jobs = new ArrayList<>();
        long due = System.currentTimeMillis() - 1_000;
        for (int i = 0; jobs.size() < n; i++) {
            String id = String.format("job-%04d", i);
            if (redis.store().bucketOf(id) == BUCKET) {
                jobs.add(new Job(id, TOPIC, null, null, 0, 0, 0, 0, "body of " + id, due + jobs.size()));
            }
        }
        return jobs;
    }
}
