package io.mykit.delay.queue.store;

import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;

import java.util.ArrayList;
import java.util.List;

/**
 * The bucket migration's Lua scripts, run by EVALSHA through any {@link UnifiedJedis} (one Redis or a cluster). Each
 * call names keys of a single bucket, so a cluster routes it to one slot.
 */
final class MigrationScripts {
    final LuaScript moveIn = LuaScript.load("migrate_in");
    final LuaScript moveOut = LuaScript.load("migrate_out");
    final LuaScript pruneReady = LuaScript.load("prune_ready");

    /** One script call; its first key picks the node that runs it. */
    record Call(LuaScript script, List<String> keys, List<String> args) {
    }

    /**
     * Runs the calls in one pipeline and returns their replies in order. On NOSCRIPT (a node that has not seen the
     * script yet) it loads the scripts on the calls' nodes and runs them all again: every migration call is safe to
     * repeat.
     */
    List<Object> run(UnifiedJedis redis, List<Call> calls) {
        try {
            return pipelined(redis, calls);
        } catch (JedisDataException e) {
            if (e.getMessage() == null || !e.getMessage().startsWith("NOSCRIPT")) {
                throw e;
            }
            calls.forEach(call -> redis.scriptLoad(call.script().source(), call.keys().get(0)));
            return pipelined(redis, calls);
        }
    }

    private static List<Object> pipelined(UnifiedJedis redis, List<Call> calls) {
        List<Response<Object>> replies = new ArrayList<>(calls.size());
        try (AbstractPipeline pipe = redis.pipelined()) {
            calls.forEach(call -> replies.add(pipe.evalsha(call.script().sha(), call.keys(), call.args())));
            pipe.sync();
        }
        List<Object> values = new ArrayList<>(replies.size());
        replies.forEach(reply -> values.add(reply.get()));
        return values;
    }
}
