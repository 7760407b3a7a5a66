package io.mykit.delay.test.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.JournalEntry;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.recovery.RecoveryService;
import io.mykit.delay.queue.recovery.RestoreReport;
import io.mykit.delay.queue.store.DelayStore;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.test.gateway.GatewayClient.Reply;
import io.mykit.delay.test.support.TestServers;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import redis.clients.jedis.Jedis;

/**
 * Three jobs that each admin handler would change if it ran, so a test can tell a refused admin call from one that ran
 * and then failed: {@code stored} sits in Redis (/clearAll removes it), {@code lost} is journaled pending but gone from
 * Redis (/reStore and /reStoreJob add it back), {@code dead} is journaled Dead in {@code deadTopic} (respawn revives
 * it, drop deletes it). A restore also changes the restore status.
 */
public record AdminCanaries(
        TestGateway gateway, String stored, String lost, String dead, String deadTopic, RestoreReport restoreStatus) {
    private static final long A_DAY_MS = 86_400_000L;

    /** Pushes the three jobs (due in a day) and puts {@code lost} and {@code dead} where they belong. */
    public static AdminCanaries seed(TestGateway gateway, String deadTopic) throws InterruptedException {
        String unique = UUID.randomUUID().toString().substring(0, 8);
        String stored = "canary-stored-" + unique;
        String lost = "canary-lost-" + unique;
        String dead = "canary-dead-" + unique;
        Reply pushed = gateway.client()
                .pushBatch("[" + job(stored, deadTopic + "-live") + "," + job(lost, deadTopic + "-live") + ","
                        + job(dead, deadTopic) + "]");
        assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        assertThat(gateway.bean(StateChangeWriter.class).flush(30_000))
                .as("journal state changes flushed")
                .isTrue();
        DelayStore store = gateway.bean(DelayStore.class);
        assertThat(store.delete(lost)).isEqualTo(DelayStore.RemoveResult.REMOVED);
        assertThat(store.delete(dead)).isEqualTo(DelayStore.RemoveResult.REMOVED);
        assertThat(gateway.bean(Journal.class)
                        .transition(
                                List.of(dead),
                                JobStatus.Delay,
                                JobStatus.Dead,
                                "AdminCanaries",
                                System.currentTimeMillis()))
                .containsExactly(dead);
        AdminCanaries canaries = new AdminCanaries(
                gateway,
                stored,
                lost,
                dead,
                deadTopic,
                gateway.bean(RecoveryService.class).status());
        assertThat(canaries.changes()).as("canaries just seeded").isEmpty();
        return canaries;
    }

    private static String job(String id, String topic) {
        return "{\"id\":\"" + id + "\",\"topic\":\"" + topic + "\",\"delay\":" + A_DAY_MS + "}";
    }

    /** What an admin handler changed since seeding, in words; empty when none ran. */
    public List<String> changes() {
        List<String> changes = new ArrayList<>();
        if (!inRedis(stored)) {
            changes.add(stored + " left Redis (/clearAll or /admin/clear ran)");
        }
        if (inRedis(lost)) {
            changes.add(lost + " is back in Redis (a restore ran)");
        }
        Optional<JournalEntry> entry = gateway.bean(Journal.class).find(dead);
        JobStatus deadStatus = entry.map(JournalEntry::status).orElse(null);
        if (deadStatus != JobStatus.Dead) {
            changes.add(dead + " is journaled " + deadStatus + ", not Dead (respawn or drop ran)");
        }
        if (inRedis(dead)) {
            changes.add(dead + " is in Redis (respawn ran)");
        }
        RestoreReport now = gateway.bean(RecoveryService.class).status();
        if (!Objects.equals(now, restoreStatus)) {
            changes.add("restore status " + restoreStatus + " -> " + now + " (/reStore or /admin/restore ran)");
        }
        return changes;
    }

    /** Looked up in Redis directly, by the key layout, not through the gateway's store. */
    private boolean inRedis(String jobId) {
        DelayStore store = gateway.bean(DelayStore.class);
        Keys keys = new Keys(gateway.keyPrefix(), store.buckets());
        int bucket = store.bucketOf(jobId);
        try (Jedis redis =
                new Jedis(TestServers.redis().host(), TestServers.redis().port(), 30_000)) {
            return redis.hexists(keys.pool(bucket), jobId) || redis.zscore(keys.dueSlice(bucket, jobId), jobId) != null;
        }
    }
}
