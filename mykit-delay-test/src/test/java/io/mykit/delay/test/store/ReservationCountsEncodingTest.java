package io.mykit.delay.test.store;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.store.DelayStore;
import io.mykit.delay.test.support.PrefixedStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bucket's reservation counts stay a Redis hash table, not a listpack (the shared Redis, a key prefix per test). As a
 * listpack of hundreds of in-flight ids every count read or written scanned the list: HMGET of 100 fields in a listpack
 * of 400 took 233 us, in a hash table 26 us, and the counts were a third of Redis' time per job in a drain of 1M
 * (issue #14 profile). A pad field no job id can spell keeps the hash a hash table.
 */
class ReservationCountsEncodingTest {
    private static final int BUCKETS = 4;
    private static final int BUCKET = 1;
    private static final String TOPIC = "counts-encoding";
    private static final long TTR = 60_000;

    @RegisterExtension
    static final PrefixedStore redis = new PrefixedStore("counts-encoding", BUCKETS);

    @Test
    void a_batch_reservation_leaves_the_counts_a_hash_table_that_only_job_ids_and_the_pad_fill() {
        List<Job> due = readyInBucket(5);

        DelayStore.Reservation batch = redis.store().reserveFrom(BUCKET, TOPIC, TTR, 3);
        DelayStore.Reservation single = redis.store().reserveFrom(BUCKET, TOPIC, TTR, 1);

        String counts = redis.keys().reserved(BUCKET);
        assertThat(redis.client().objectEncoding(counts)).isEqualTo("hashtable");
        assertThat(batch.jobs()).extracting(Job::getAttempts).containsExactly(0, 0, 0);
        assertThat(single.jobs()).extracting(Job::getAttempts).containsExactly(0);
        Map<String, String> fields = redis.client().hgetAll(counts);
        assertThat(fields).containsEntry(due.get(0).getId(), "1").containsEntry(due.get(3).getId(), "1")
                .hasSize(5);
        assertThat(fields.keySet()).filteredOn(field -> !field.startsWith("job-")).containsExactly("~pad");

        List<String> reserved = new ArrayList<>();
        batch.jobs().forEach(job -> reserved.add(job.getId()));
        single.jobs().forEach(job -> reserved.add(job.getId()));
        assertThat(redis.store().finishAll(reserved, System.currentTimeMillis()))
                .containsOnly(DelayStore.RemoveResult.REMOVED);

        assertThat(redis.client().hkeys(counts)).containsExactly("~pad");
        assertThat(redis.client().objectEncoding(counts)).isEqualTo("hashtable");
        DelayStore.Reservation last = redis.store().reserveFrom(BUCKET, TOPIC, TTR, 5);
        assertThat(last.jobs()).extracting(Job::getId).containsExactly(due.get(4).getId());
        assertThat(last.jobs().get(0).getAttempts()).isZero();
    }

    /** {@code n} jobs of the topic in {@link #BUCKET}, pumped and in its ready list, in id order. */
    private List<Job> readyInBucket(int n) {
        List<Job> jobs = new ArrayList<>();
        long due = System.currentTimeMillis() - 1_000;
        for (int i = 0; jobs.size() < n; i++) {
            String id = String.format("job-%04d", i);
            if (redis.store().bucketOf(id) == BUCKET) {
                jobs.add(new Job(id, TOPIC, null, null, 0, 0, 0, 0, "body of " + id, due + jobs.size()));
            }
        }
        redis.store().add(jobs);
        List<Job> pumped = redis.store().pumpDue(BUCKET, System.currentTimeMillis(), 100, TTR).jobs();
        assertThat(redis.store().toReady(BUCKET, TOPIC, pumped.stream().map(Job::getId).toList())).isEqualTo(n);
        return jobs;
    }
}
