package io.mykit.delay.test.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.dispatch.Dispatcher;
import io.mykit.delay.queue.dispatch.pull.PullTarget;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.store.DelayStore;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.timer.BucketTimer;
import io.mykit.delay.test.support.PrefixedStore;
import io.mykit.delay.test.support.StoreProbes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.UnifiedJedis;

/**
 * Where every topic goes to the pull queue, a pump puts due jobs straight in their topics' ready lists: one script call
 * per hand-over instead of pump_due and then to_ready (issue #14), with the same stage counts and order (the shared
 * Redis, a key prefix per test).
 */
class PumpToReadyTest {
    private static final int BUCKETS = 4;
    private static final int BUCKET = 1;
    private static final long TTR = 60_000;

    @RegisterExtension
    static final PrefixedStore redis = new PrefixedStore("to-ready", BUCKETS);

    @Test
    void a_pump_puts_each_due_job_in_its_topics_ready_list_and_leaves_the_rest_waiting() {
        RedisDelayStore store = redis.store();
        Keys keys = redis.keys();
        UnifiedJedis client = redis.client();
        long now = System.currentTimeMillis();
        List<Job> jobs = inBucket(4, now - 1_000);
        Job a1 = retopic(jobs.get(0), "alpha", now - 300);
        Job b1 = retopic(jobs.get(1), "beta", now - 200);
        Job a2 = retopic(jobs.get(2), "alpha", now - 100);
        Job later = retopic(jobs.get(3), "alpha", now + 60_000);
        store.add(List.of(a2, later, b1, a1));

        List<Job> pumped = store.pumpDueToReady(BUCKET, now, 100).jobs();

        assertThat(pumped).extracting(Job::getId).containsExactly(a1.getId(), b1.getId(), a2.getId());
        assertThat(client.lrange(keys.ready(BUCKET, "alpha"), 0, -1)).containsExactly(a1.getId(), a2.getId());
        assertThat(client.lrange(keys.ready(BUCKET, "beta"), 0, -1)).containsExactly(b1.getId());
        assertThat(client.zcard(keys.inflight(BUCKET)))
                .as("nothing sits in flight")
                .isZero();
        Map<String, String> counts = client.hgetAll(keys.counts(BUCKET));
        assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of("r:alpha", "2", "r:beta", "1", "w:alpha", "1"));

        assertThat(store.reserveFrom(BUCKET, "alpha", TTR, 5).jobs())
                .extracting(Job::getId)
                .containsExactly(a1.getId(), a2.getId());
        assertThat(store.reserveFrom(BUCKET, "beta", TTR, 5).jobs())
                .extracting(Job::getId)
                .containsExactly(b1.getId());
        assertThat(store.pumpDueToReady(BUCKET, now, 100).jobs())
                .as("the later job is not due")
                .isEmpty();
    }

    @Test
    void a_timer_of_a_pull_only_gateway_hands_over_in_one_script_call() throws Exception {
        Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
        DelayStore counting = StoreProbes.counted(redis.store(), calls);
        StateChangeWriter states = new StateChangeWriter(StoreProbes.nowhere(), 100, 0);
        states.start();
        BucketTimer timer = null;
        try (PullTarget pull = new PullTarget(counting, states, Clock.systemUTC(), 100)) {
            Dispatcher dispatcher = new Dispatcher(topic -> pull, handedOver -> {}, pull);
            timer = new BucketTimer(BUCKET, counting, dispatcher, Clock.systemUTC(), 100, 50, TTR);
            Job job = retopic(inBucket(1, 0).get(0), "solo", System.currentTimeMillis() + 200);
            redis.store().add(List.of(job));
            timer.start();
            timer.wakeBy(job.dueTime());

            assertThat(pull.reserve("solo", 1, TTR, 5_000))
                    .extracting(Job::getId)
                    .containsExactly(job.getId());
            assertThat(StoreProbes.calls(calls, "toReady")).as("to_ready calls").isZero();
            assertThat(StoreProbes.calls(calls, "pumpDue")).as("two-step pumps").isZero();
            assertThat(StoreProbes.calls(calls, "pumpDueToReady"))
                    .as("one-step pumps")
                    .isPositive();
        } finally {
            if (timer != null) {
                timer.stop();
            }
            states.close();
        }
    }

    /** {@code n} jobs whose ids fall in {@link #BUCKET}, due at {@code due}. */
    private List<Job> inBucket(int n, long due) {
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; jobs.size() < n; i++) {
            String id = String.format("ready-%04d", i);
            if (redis.store().bucketOf(id) == BUCKET) {
                jobs.add(new Job(id, "t", null, null, 0, 0, 0, 0, "body of " + id, due));
            }
        }
        return jobs;
    }

    private static Job retopic(Job job, String topic, long due) {
        return new Job(job.getId(), topic, null, null, 0, 0, 0, 0, job.getBody(), due);
    }
}
