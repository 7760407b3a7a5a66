package io.mykit.delay.queue.store;

import io.mykit.delay.common.error.StoreUnavailableException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.util.Buckets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.exceptions.JedisRedirectionException;

/**
 * The plumbing every part of the Redis store shares: one Redis (or cluster), its keys, the loaded scripts, this node's
 * fencing tokens and the record encoder; and how a step runs (one retry on a stale connection, failures as
 * {@link StoreUnavailableException}), how script calls are pipelined per node and reloaded on NOSCRIPT, and how a
 * FENCED reply becomes a {@link FencedException}.
 */
final class StoreCalls {
    private final RedisNodes redis;
    private final Keys keys;
    private final Scripts scripts;
    private final FenceTokens fence;
    private final Function<Job, String> encoder;

    StoreCalls(RedisNodes redis, Keys keys, FenceTokens fence, Function<Job, String> encoder) {
        this.redis = redis;
        this.keys = keys;
        this.fence = fence;
        this.encoder = encoder;
        this.scripts = new Scripts(
                redis, IntStream.range(0, keys.buckets()).mapToObj(keys::owner).toList());
    }

    RedisNodes redis() {
        return redis;
    }

    Keys keys() {
        return keys;
    }

    Scripts scripts() {
        return scripts;
    }

    FenceTokens fence() {
        return fence;
    }

    /** A job's record as this store writes it (see {@link io.mykit.delay.common.model.JobCodec}). */
    String encode(Job job) {
        return encoder.apply(job);
    }

    int bucketOf(String jobId) {
        return Buckets.of(jobId, keys.buckets());
    }

    /** Loads every script on every node that serves a bucket. */
    void loadScripts() {
        step(() -> {
            scripts.loadAll();
            return null;
        });
    }

    /** One script call on the node serving {@code keyList} (one bucket's keys, so one slot). */
    Object eval(LuaScript script, List<String> keyList, List<String> args) {
        return step(() -> scripts.eval(script, keyList, args));
    }

    /** {@link #eval} of a step that names the caller's ownership term: a FENCED reply stops this node's bucket. */
    Object evalFenced(int bucket, LuaScript script, List<String> keyList, List<String> args) {
        return step(() -> {
            try {
                return scripts.eval(script, keyList, args);
            } catch (JedisDataException e) {
                if (isFenced(e)) {
                    throw fence.refused(bucket);
                }
                throw e;
            }
        });
    }

    static boolean isFenced(JedisDataException e) {
        // the first word of an error reply is its code; some servers put ERR in front of it
        String message = e.getMessage();
        return message != null && (message.startsWith("FENCED") || message.startsWith("ERR FENCED"));
    }

    /** EVALSHA queued on the pipeline of the node serving {@code keyList} (one bucket's keys, so one slot). */
    static Response<Object> evalsha(NodePipelines<?> pipes, LuaScript script, List<String> keyList, List<String> args) {
        return pipes.on(keyList.get(0)).evalsha(script.sha(), keyList, args);
    }

    /** Plain commands pipelined per node, replies unread. */
    void batch(Consumer<NodePipelines<?>> calls) {
        step(() -> {
            try (NodePipelines<?> pipes = redis.pipelines()) {
                calls.accept(pipes);
                pipes.sync();
            }
            return null;
        });
    }

    /**
     * Runs EVALSHA calls pipelined per node; on NOSCRIPT loads the scripts and runs them once more (all callers are
     * idempotent). A FENCED reply comes back as its {@link JedisDataException}, so that one refused bucket does not
     * cost the others their replies.
     */
    List<Object> pipelined(Function<NodePipelines<?>, List<Response<Object>>> calls) {
        return step(() -> {
            try {
                return runPipeline(calls);
            } catch (JedisNoScriptException e) {
                scripts.loadAll();
                return runPipeline(calls);
            }
        });
    }

    private List<Object> runPipeline(Function<NodePipelines<?>, List<Response<Object>>> calls) {
        List<Response<Object>> replies;
        try (NodePipelines<?> pipes = redis.pipelines()) {
            replies = calls.apply(pipes);
            pipes.sync();
        }
        List<Object> values = new ArrayList<>(replies.size());
        for (Response<Object> reply : replies) {
            try {
                values.add(reply.get());
            } catch (JedisDataException e) {
                if (!isFenced(e)) {
                    throw e;
                }
                values.add(e);
            }
        }
        return values;
    }

    /**
     * Runs one store step. A broken connection (Redis restarted since it was pooled) or a cluster redirection (a slot
     * moved) refreshes the connections and the slot map and the step runs once more; every step is safe to repeat (NX
     * adds, guarded moves, sweepable).
     */
    <T> T step(Supplier<T> work) {
        try {
            return work.get();
        } catch (JedisConnectionException | JedisRedirectionException stale) {
            try {
                redis.refresh();
                return work.get();
            } catch (JedisException e) {
                e.addSuppressed(stale);
                throw new StoreUnavailableException("redis", e.getMessage(), e);
            }
        } catch (JedisException e) {
            throw new StoreUnavailableException("redis", e.getMessage(), e);
        }
    }
}
