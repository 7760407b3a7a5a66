package io.mykit.delay.queue.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * The bucket migration's Lua scripts, loaded on every node that serves a bucket and run by EVALSHA through the store's
 * {@link RedisNodes}: one pipeline per node, never Jedis' ClusterPipeline. Each call names keys of a single bucket, so
 * it runs on the one node of that slot.
 */
final class MigrationScripts {
    final LuaScript moveIn = LuaScript.load("migrate_in");
    final LuaScript moveOut = LuaScript.load("migrate_out");
    final LuaScript pruneReady = LuaScript.load("prune_ready");
    final LuaScript sliceLegacy = LuaScript.load("slice_legacy");

    private final List<LuaScript> all = List.of(moveIn, moveOut, pruneReady, sliceLegacy);
    private final RedisNodes redis;

    MigrationScripts(RedisNodes redis) {
        this.redis = redis;
    }

    /** One script call; its first key picks the node that runs it. */
    record Call(LuaScript script, List<String> keys, List<String> args) {}

    /** SCRIPT LOAD on each node serving one of {@code sampleKeys}. */
    void load(Collection<String> sampleKeys) {
        redis.loadScripts(all, sampleKeys);
    }

    /**
     * Runs the calls, pipelined per node, and returns their replies in order. On NOSCRIPT (a node restarted or flushed
     * its scripts) it loads the scripts on the calls' nodes and runs them all again: every migration call is safe to
     * repeat.
     */
    List<Object> run(List<Call> calls) {
        try {
            return pipelined(calls);
        } catch (JedisNoScriptException e) {
            load(calls.stream().map(call -> call.keys().get(0)).toList());
            return pipelined(calls);
        }
    }

    private List<Object> pipelined(List<Call> calls) {
        List<Response<Object>> replies = new ArrayList<>(calls.size());
        try (NodePipelines<?> pipes = redis.pipelines()) {
            calls.forEach(call -> replies.add(
                    pipes.on(call.keys().get(0)).evalsha(call.script().sha(), call.keys(), call.args())));
            pipes.sync();
        }
        List<Object> values = new ArrayList<>(replies.size());
        replies.forEach(reply -> values.add(reply.get()));
        return values;
    }
}
