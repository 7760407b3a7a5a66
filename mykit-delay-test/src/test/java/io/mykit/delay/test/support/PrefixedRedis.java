package io.mykit.delay.test.support;

import io.mykit.delay.queue.store.SingleRedis;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The tests' shared Redis ({@link TestServers#redis()}) for one test class that keeps each test's keys under a prefix
 * of its own: the store's connection over it, and the removal of a test's keys afterwards (SCAN, never KEYS, which
 * would hold up every other user of the shared server).
 */
public final class PrefixedRedis implements AutoCloseable {
    private final SingleRedis nodes;

    private PrefixedRedis(SingleRedis nodes) {
        this.nodes = nodes;
    }

    public static PrefixedRedis connect() {
        TestServers.RedisEndpoint endpoint = TestServers.redis();
        return new PrefixedRedis(new SingleRedis(TestServers.redisClient(endpoint.host(), endpoint.port())));
    }

    /** The connection a store under test runs on. */
    public SingleRedis nodes() {
        return nodes;
    }

    /** The same connection, for reading and writing keys directly. */
    public UnifiedJedis client() {
        return nodes.client();
    }

    /** Deletes every key of the hash-tagged prefix ({@code {prefix...}}), in batches. */
    public void deleteKeys(String prefix) {
        List<String> mine = keysMatching(client(), "{" + prefix + "*");
        for (int i = 0; i < mine.size(); i += 500) {
            client().unlink(mine.subList(i, Math.min(i + 500, mine.size())).toArray(String[]::new));
        }
    }

    /** The keys matching a glob pattern, by SCAN; each once. */
    public static List<String> keysMatching(UnifiedJedis redis, String pattern) {
        List<String> found = new ArrayList<>();
        ScanParams params = new ScanParams().match(pattern).count(1000);
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            ScanResult<String> page = redis.scan(cursor, params);
            found.addAll(page.getResult());
            cursor = page.getCursor();
        } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
        return found.stream().distinct().toList();
    }

    @Override
    public void close() {
        nodes.close();
    }
}
