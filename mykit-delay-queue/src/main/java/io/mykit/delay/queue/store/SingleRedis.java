package io.mykit.delay.queue.store;

import java.util.Collection;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;

/** One Redis server through a {@link JedisPooled}: every batch is one pipeline on one pooled connection. */
public final class SingleRedis implements RedisNodes {
    private static final String THE_NODE = "single";

    private final JedisPooled pooled;

    public SingleRedis(JedisPooled pooled) {
        this.pooled = pooled;
    }

    @Override
    public UnifiedJedis client() {
        return pooled;
    }

    @Override
    public NodePipelines<String> pipelines() {
        return new NodePipelines<>(key -> THE_NODE, node -> pooled.getPool().getResource());
    }

    @Override
    public void loadScripts(Collection<LuaScript> scripts, Collection<String> sampleKeys) {
        // the one node serves every key
        scripts.forEach(script -> pooled.scriptLoad(script.source()));
    }

    @Override
    public void refresh() {
        pooled.getPool().clear();
    }

    @Override
    public void close() {
        pooled.close();
    }
}
