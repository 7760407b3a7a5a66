package io.mykit.delay.queue.store;

import io.mykit.delay.queue.store.Delivery.RemoveResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import redis.clients.jedis.Response;

/**
 * The scripts that end jobs in Redis, which a cancel ({@link JobWrites#delete}) and the delivery's finishes and forgets
 * share: each takes the same keys of the job's bucket ({@link #keysOf}, bound by lua/include/ending.lua), so that an
 * end leaves a tombstone while a restore runs and a finish leaves its finish mark in the same atomic step.
 */
final class Endings {
    /** Most ids one finish_all.lua call takes: Lua's unpack holds a few thousand values. */
    private static final int FINISH_CALL_IDS = 500;

    private final StoreCalls calls;

    Endings(StoreCalls calls) {
        this.calls = calls;
    }

    /**
     * The keys of scripts that end jobs: due index, in-flight, pool, reservations, restore marker, tombstones,
     * counters, finish marks.
     */
    List<String> keysOf(int bucket) {
        Keys keys = calls.keys();
        return List.of(
                keys.due(bucket),
                keys.inflight(bucket),
                keys.pool(bucket),
                keys.reserved(bucket),
                keys.restoring(bucket),
                keys.ended(bucket),
                keys.counts(bucket),
                keys.finished(bucket));
    }

    /** A puller's finish of one job (remove.lua): refused for a job not due by {@code now}. */
    RemoveResult finish(String jobId, long now) {
        return remove(jobId, now, "finish");
    }

    /** A cancel (remove.lua): any job still waiting. */
    RemoveResult cancel(String jobId) {
        return remove(jobId, Long.MAX_VALUE, "cancel");
    }

    private RemoveResult remove(String jobId, long latestScore, String mode) {
        int b = calls.bucketOf(jobId);
        long result = (Long) calls.eval(
                calls.scripts().remove,
                keysOf(b),
                List.of(jobId, Long.toString(latestScore), mode, calls.keys().ready(b, "")));
        return removeResult(result);
    }

    /** Many finishes: one finish_all.lua call per bucket (and per {@link #FINISH_CALL_IDS} ids of it), pipelined. */
    List<RemoveResult> finishAll(List<String> jobIds, long now) {
        Map<Integer, List<Integer>> positionsByBucket = new TreeMap<>();
        for (int i = 0; i < jobIds.size(); i++) {
            positionsByBucket
                    .computeIfAbsent(calls.bucketOf(jobIds.get(i)), b -> new ArrayList<>())
                    .add(i);
        }
        List<List<Integer>> parts = new ArrayList<>();
        List<Object> replies = calls.pipelined(pipe -> {
            // run again after a NOSCRIPT: the calls are listed anew
            parts.clear();
            List<Response<Object>> out = new ArrayList<>();
            positionsByBucket.forEach((b, positions) -> {
                for (int from = 0; from < positions.size(); from += FINISH_CALL_IDS) {
                    List<Integer> part = positions.subList(from, Math.min(positions.size(), from + FINISH_CALL_IDS));
                    List<String> args = new ArrayList<>(part.size() + 2);
                    args.add(Long.toString(now));
                    args.add(calls.keys().ready(b, ""));
                    part.forEach(position -> args.add(jobIds.get(position)));
                    parts.add(part);
                    out.add(StoreCalls.evalsha(pipe, calls.scripts().finishAll, keysOf(b), args));
                }
            });
            return out;
        });
        RemoveResult[] results = new RemoveResult[jobIds.size()];
        for (int c = 0; c < parts.size(); c++) {
            List<?> codes = (List<?>) replies.get(c);
            List<Integer> positions = parts.get(c);
            for (int k = 0; k < positions.size(); k++) {
                results[positions.get(k)] = removeResult((Long) codes.get(k));
            }
        }
        return List.of(results);
    }

    /** Drops jobs of one bucket wherever they are (forget.lua); returns how many were there. */
    int forget(int bucket, List<String> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        Object dropped = calls.eval(calls.scripts().forget, keysOf(bucket), ids);
        return ((Long) dropped).intValue();
    }

    private static RemoveResult removeResult(long reply) {
        return switch ((int) reply) {
            case 1 -> RemoveResult.REMOVED;
            case 0 -> RemoveResult.ABSENT;
            case -1 -> RemoveResult.NOT_DUE;
            case -3 -> RemoveResult.NOT_HANDED_OVER;
            default -> RemoveResult.IN_FLIGHT;
        };
    }
}
