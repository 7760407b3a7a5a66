package io.mykit.delay.test.support;

import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.store.SingleRedis;
import java.util.UUID;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.UnifiedJedis;

/**
 * A {@link RedisDelayStore} on the shared Redis under a key prefix of each test's own, its keys deleted after the test:
 * register it as a static field with {@code @RegisterExtension}.
 */
public final class PrefixedStore implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    private final String name;
    private final int buckets;
    private PrefixedRedis shared;
    private String prefix;
    private Keys keys;
    private RedisDelayStore store;

    /** Prefixes start with {@code name}; the store has {@code buckets} buckets. */
    public PrefixedStore(String name, int buckets) {
        this.name = name;
        this.buckets = buckets;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        shared = PrefixedRedis.connect();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        prefix = name + "-" + UUID.randomUUID().toString().substring(0, 8);
        keys = new Keys(prefix, buckets);
        store = new RedisDelayStore(shared.nodes(), keys);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        shared.deleteKeys(prefix);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        shared.close();
    }

    /** This test's store. */
    public RedisDelayStore store() {
        return store;
    }

    /** This test's key layout. */
    public Keys keys() {
        return keys;
    }

    /** The shared connection a store runs on, for other stores over this test's keys. */
    public SingleRedis nodes() {
        return shared.nodes();
    }

    /** The shared connection, for reading keys directly. */
    public UnifiedJedis client() {
        return shared.client();
    }
}
