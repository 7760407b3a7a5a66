package io.mykit.delay.test.tenants;

import io.mykit.delay.common.model.JobCodec;
import io.mykit.delay.queue.journal.JobLogRow;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.JournalEntry;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.PrefixedRedis;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import redis.clients.jedis.UnifiedJedis;

/**
 * Everything the gateway holds of one job: its journal row and log, and every Redis key under the gateway's prefix that
 * names it (its record, its place in each ZSET, LIST or HASH) with its topic's counters (other topics' jobs fall due
 * meanwhile). Two traces equal = nothing of the job changed in between.
 */
final class JobTrace {
    private JobTrace() {}

    /** The trace without the topic counters, which other jobs of the same buckets move too. */
    static Map<String, String> ofJobAlone(TestGateway gateway, UnifiedJedis redis, String jobId) throws Exception {
        Map<String, String> trace = of(gateway, redis, jobId);
        trace.keySet().removeIf(key -> key.endsWith(":count"));
        return trace;
    }

    static Map<String, String> of(TestGateway gateway, UnifiedJedis redis, String jobId) throws Exception {
        Map<String, String> trace = new TreeMap<>();
        gateway.flushJournal();
        Journal journal = gateway.bean(Journal.class);
        Optional<JournalEntry> entry = journal.find(jobId);
        entry.ifPresent(found ->
                trace.put("journal", found.status() + " " + found.updateTime() + " " + JobCodec.encode(found.job())));
        String topic = entry.map(found -> found.job().getTopic()).orElse(null);
        List<JobLogRow> history = journal.history(jobId);
        trace.put(
                "journal log",
                history.stream().map(JobLogRow::toString).toList().toString());
        for (String key : PrefixedRedis.keysMatching(redis, "{" + gateway.keyPrefix() + "*")) {
            switch (redis.type(key)) {
                case "hash" -> {
                    if (key.endsWith(":count")) {
                        Map<String, String> counts = new TreeMap<>(redis.hgetAll(key));
                        // a counter field is <stage>:<topic>
                        counts.keySet()
                                .removeIf(field ->
                                        !field.substring(field.indexOf(':') + 1).equals(topic));
                        if (!counts.isEmpty()) {
                            trace.put(key, counts.toString());
                        }
                    } else if (redis.hexists(key, jobId)) {
                        trace.put(key, redis.hget(key, jobId));
                    }
                }
                case "zset" -> {
                    Double score = redis.zscore(key, jobId);
                    if (score != null) {
                        trace.put(key, score.toString());
                    }
                }
                case "list" -> {
                    List<String> items = redis.lrange(key, 0, -1);
                    if (items.contains(jobId)) {
                        trace.put(key, items.toString());
                    }
                }
                case "set" -> {
                    if (redis.sismember(key, jobId)) {
                        trace.put(key, "member");
                    }
                }
                default -> {}
            }
        }
        return trace;
    }
}
