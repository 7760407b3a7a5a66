package io.mykit.delay.queue.store;

import java.util.List;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * The gateway's Lua scripts, loaded once on every node that serves a bucket and run by EVALSHA; a NOSCRIPT reply (a
 * node restarted or flushed its scripts) loads them on every such node and runs the call once more.
 */
final class Scripts {
    final LuaScript add = LuaScript.load("add");
    final LuaScript pumpDue = LuaScript.load("pump_due");
    final LuaScript toReady = LuaScript.load("to_ready");
    final LuaScript reserve = LuaScript.load("reserve");
    final LuaScript remove = LuaScript.load("remove");
    final LuaScript finishAll = LuaScript.load("finish_all");
    final LuaScript sweep = LuaScript.load("sweep");
    final LuaScript forget = LuaScript.load("forget");
    final LuaScript retry = LuaScript.load("retry");
    final LuaScript park = LuaScript.load("park");
    final LuaScript release = LuaScript.load("release");
    final LuaScript touch = LuaScript.load("touch");
    final LuaScript respawn = LuaScript.load("respawn");
    final LuaScript markEnded = LuaScript.load("mark_ended");
    final LuaScript endRestore = LuaScript.load("end_restore");
    final LuaScript claim = LuaScript.load("claim");
    final LuaScript reschedule = LuaScript.load("reschedule");
    final LuaScript unreserve = LuaScript.load("unreserve");

    private final List<LuaScript> all = List.of(
            add,
            pumpDue,
            toReady,
            reserve,
            remove,
            finishAll,
            sweep,
            forget,
            retry,
            park,
            release,
            touch,
            respawn,
            markEnded,
            endRestore,
            claim,
            reschedule,
            unreserve);
    private final RedisNodes redis;
    /** One key per bucket: loading on the nodes serving these reaches every node a script can run on. */
    private final List<String> bucketKeys;

    Scripts(RedisNodes redis, List<String> bucketKeys) {
        this.redis = redis;
        this.bucketKeys = List.copyOf(bucketKeys);
    }

    void loadAll() {
        redis.loadScripts(all, bucketKeys);
    }

    /** EVALSHA on the node serving {@code keys} (all of one bucket, so of one slot). */
    Object eval(LuaScript script, List<String> keys, List<String> args) {
        try {
            return redis.client().evalsha(script.sha(), keys, args);
        } catch (JedisNoScriptException e) {
            loadAll();
            return redis.client().evalsha(script.sha(), keys, args);
        }
    }
}
