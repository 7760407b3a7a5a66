package io.mykit.delay.test.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.dispatch.Dispatcher;
import io.mykit.delay.queue.dispatch.pull.PullTarget;
import io.mykit.delay.queue.dispatch.pull.Stream;
import io.mykit.delay.queue.dispatch.pull.StreamOutlet;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.store.DelayStore;
import io.mykit.delay.queue.store.Delivery;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.PumpResult;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.timer.BucketTimer;
import io.mykit.delay.test.support.PrefixedStore;
import io.mykit.delay.test.support.StoreProbes;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.UnifiedJedis;

/**
 * The direct hand-over: a pump reserves due jobs for streams with free credit in the same script call, instead of
 * putting them in a ready list for a look to reserve (the shared Redis, a key prefix per test).
 */
class StreamHandOverTest {
    private static final int BUCKETS = 4;
    private static final int BUCKET = 2;
    private static final long TTR = 60_000;

    @RegisterExtension
    static final PrefixedStore redis = new PrefixedStore("direct", BUCKETS);

    @Test
    void a_pump_reserves_due_jobs_for_each_claim_up_to_its_room_and_readies_the_rest() {
        RedisDelayStore store = redis.store();
        Keys keys = redis.keys();
        UnifiedJedis client = redis.client();
        long now = System.currentTimeMillis();
        List<Job> jobs = inBucket(5);
        Job a1 = retopic(jobs.get(0), "alpha", now - 500);
        Job a2 = retopic(jobs.get(1), "alpha", now - 400);
        Job b1 = retopic(jobs.get(2), "beta", now - 300);
        Job a3 = retopic(jobs.get(3), "alpha", now - 200);
        Job later = retopic(jobs.get(4), "alpha", now + 60_000);
        store.add(List.of(a1, a2, b1, a3, later));

        PumpResult pumped = store.pumpDueToReady(
                BUCKET,
                now,
                100,
                List.of(
                        new Delivery.Claim(List.of("alpha"), 1, TTR),
                        new Delivery.Claim(List.of("gamma", "beta"), 5, TTR)));

        assertThat(pumped.jobs())
                .extracting(Job::getId)
                .containsExactlyInAnyOrder(a1.getId(), a2.getId(), b1.getId(), a3.getId());
        assertThat(pumped.reserved())
                .extracting(each -> each.claim() + ":" + each.job().getId())
                .containsExactly("0:" + a1.getId(), "1:" + b1.getId());
        assertThat(pumped.reserved())
                .allSatisfy(each -> assertThat(each.job().getAttempts())
                        .as("no reservation before")
                        .isZero());
        assertThat(client.lrange(keys.ready(BUCKET, "alpha"), 0, -1))
                .as("alpha beyond its claim's room waits for a look")
                .containsExactly(a2.getId(), a3.getId());
        assertThat(client.lrange(keys.ready(BUCKET, "beta"), 0, -1)).isEmpty();
        assertThat(client.zrange(keys.inflight(BUCKET), 0, -1)).containsExactlyInAnyOrder(a1.getId(), b1.getId());
        assertThat(client.hget(keys.reserved(BUCKET), a1.getId()))
                .as("counted as a reservation")
                .isEqualTo("1");
        assertThat(client.hgetAll(keys.counts(BUCKET)))
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of("f:alpha", "1", "f:beta", "1", "r:alpha", "2", "w:alpha", "1"));
        assertThat(store.finish(a1.getId(), now))
                .as("a job reserved by a pump is finished as a pulled one")
                .isEqualTo(Delivery.RemoveResult.REMOVED);
        assertThat(store.unreserve(pumped.reserved().get(1).job()))
                .as("and given back as one")
                .isTrue();
        assertThat(client.lrange(keys.ready(BUCKET, "beta"), 0, -1)).containsExactly(b1.getId());
    }

    @Test
    void a_stream_with_free_credit_gets_due_jobs_from_the_pump_without_a_look() throws Exception {
        Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
        DelayStore counting = StoreProbes.counted(redis.store(), calls);
        StateChangeWriter states = new StateChangeWriter(StoreProbes.nowhere(), 100, 0);
        states.start();
        BucketTimer timer = null;
        List<Job> written = new CopyOnWriteArrayList<>();
        try (PullTarget pull = new PullTarget(counting, states, Clock.systemUTC(), 60_000)) {
            Dispatcher dispatcher = new Dispatcher(topic -> pull, handedOver -> {}, pull);
            timer = new BucketTimer(BUCKET, counting, dispatcher, Clock.systemUTC(), 100, 50, TTR);
            Stream stream = pull.openStream(List.of("solo"), 2, TTR, new StreamOutlet() {
                @Override
                public boolean jobs(List<Job> jobs) {
                    written.addAll(jobs);
                    return true;
                }

                @Override
                public void stopping() {}
            });
            // the stream's first look finds nothing and waits
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> pull.waitingTopics() == 1
                            && StoreProbes.calls(calls, "reserve") + StoreProbes.calls(calls, "reserveFrom") > 0);
            int looksBefore = StoreProbes.calls(calls, "reserve") + StoreProbes.calls(calls, "reserveFrom");
            timer.start();
            List<Job> jobs = new ArrayList<>();
            for (Job job : inBucket(3)) {
                jobs.add(retopic(job, "solo", System.currentTimeMillis()));
            }
            redis.store().add(jobs);
            timer.wakeBy(System.currentTimeMillis());

            await().atMost(Duration.ofSeconds(20)).until(() -> written.size() == 2);
            assertThat(stream.heldCount()).as("never more than its credit").isEqualTo(2);
            assertThat(StoreProbes.calls(calls, "reserve") + StoreProbes.calls(calls, "reserveFrom"))
                    .as("no look reserved them")
                    .isEqualTo(looksBefore);
            assertThat(redis.client().llen(redis.keys().ready(BUCKET, "solo")))
                    .as("the job beyond the credit waits in its ready list")
                    .isEqualTo(1);
            stream.close();
            assertThat(redis.client().llen(redis.keys().ready(BUCKET, "solo")))
                    .as("a closed stream's jobs go back")
                    .isEqualTo(3);
        } finally {
            if (timer != null) {
                timer.stop();
            }
            states.close();
        }
    }

    /** {@code n} jobs whose ids fall in {@link #BUCKET}. */
    private List<Job> inBucket(int n) {
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; jobs.size() < n; i++) {
            String id = String.format("direct-%04d", i);
            if (redis.store().bucketOf(id) == BUCKET) {
                jobs.add(new Job(id, "t", null, null, 0, 0, 0, 0, "body of " + id, 0));
            }
        }
        return jobs;
    }

    private static Job retopic(Job job, String topic, long due) {
        return new Job(job.getId(), topic, null, null, 0, 0, 0, 0, job.getBody(), due);
    }
}
