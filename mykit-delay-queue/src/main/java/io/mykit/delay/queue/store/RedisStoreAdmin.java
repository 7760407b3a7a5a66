package io.mykit.delay.queue.store;

import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/** {@link StoreAdmin} on Redis: one epoch key per bucket, and a clear that walks the buckets one by one. */
final class RedisStoreAdmin implements StoreAdmin {
    private final StoreCalls calls;
    private final Keys keys;

    RedisStoreAdmin(StoreCalls calls) {
        this.calls = calls;
        this.keys = calls.keys();
    }

    @Override
    public boolean hasEpoch() {
        // every bucket's mark: on a cluster, one master restarted empty loses only the marks of its slots
        return calls.step(() -> {
            List<Response<Boolean>> marks = new ArrayList<>(keys.buckets());
            try (NodePipelines<?> pipes = calls.redis().pipelines()) {
                for (int b = 0; b < keys.buckets(); b++) {
                    marks.add(pipes.on(keys.epoch(b)).exists(keys.epoch(b)));
                }
                pipes.sync();
            }
            return marks.stream().allMatch(Response::get);
        });
    }

    @Override
    public void writeEpoch() {
        String now = Long.toString(System.currentTimeMillis());
        calls.batch(pipes -> {
            // the layout too: a restore placed every job by this gateway's count, and Redis lost the old record
            pipes.on(keys.layout()).set(keys.layout(), Integer.toString(keys.buckets()));
            for (int b = 0; b < keys.buckets(); b++) {
                pipes.on(keys.epoch(b)).set(keys.epoch(b), now);
            }
        });
    }

    @Override
    public long clear() {
        return calls.step(() -> {
            UnifiedJedis client = calls.redis().client();
            long removed = 0;
            for (int b = 0; b < keys.buckets(); b++) {
                // the restore marks and tombstones stay: a restore running now must still skip jobs that ended; the
                // pattern holds the bucket's hash tag, so on a cluster each SCAN runs on the one node of that slot
                List<String> doomed = new ArrayList<>(List.of(
                        keys.due(b),
                        keys.legacyDelay(b),
                        keys.inflight(b),
                        keys.pool(b),
                        keys.reserved(b),
                        keys.counts(b)));
                // every slice the bucket can have: one DEL, so a job added meanwhile cannot stay in a slice unindexed
                doomed.addAll(keys.dueSlices(b));
                String cursor = ScanParams.SCAN_POINTER_START;
                ScanParams params = new ScanParams().match(keys.readyPattern(b)).count(500);
                do {
                    ScanResult<String> page = client.scan(cursor, params);
                    doomed.addAll(page.getResult());
                    cursor = page.getCursor();
                } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
                removed += client.del(doomed.toArray(String[]::new));
            }
            return removed;
        });
    }
}
