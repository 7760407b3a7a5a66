package io.mykit.delay.queue.store;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

import java.util.List;

/** The gateway's Lua scripts, loaded once and run by EVALSHA; a NOSCRIPT reply (Redis restarted or flushed) reloads them. */
final class Scripts {
    final LuaScript add = LuaScript.load("add");
    final LuaScript pumpDue = LuaScript.load("pump_due");
    final LuaScript toReady = LuaScript.load("to_ready");
    final LuaScript reserve = LuaScript.load("reserve");
    final LuaScript remove = LuaScript.load("remove");
    final LuaScript sweep = LuaScript.load("sweep");
    final LuaScript forget = LuaScript.load("forget");
    final LuaScript retry = LuaScript.load("retry");
    final LuaScript release = LuaScript.load("release");
    final LuaScript touch = LuaScript.load("touch");
    final LuaScript put = LuaScript.load("put");
    final LuaScript markEnded = LuaScript.load("mark_ended");
    final LuaScript endRestore = LuaScript.load("end_restore");
    final LuaScript claim = LuaScript.load("claim");

    private final List<LuaScript> all = List.of(add, pumpDue, toReady, reserve, remove, sweep, forget, retry, release,
            touch, put, markEnded, endRestore, claim);

    void loadAll(Jedis jedis) {
        for (LuaScript script : all) {
            jedis.scriptLoad(script.source());
        }
    }

    Object eval(Jedis jedis, LuaScript script, List<String> keys, List<String> args) {
        try {
            return jedis.evalsha(script.sha(), keys, args);
        } catch (JedisNoScriptException e) {
            loadAll(jedis);
            return jedis.evalsha(script.sha(), keys, args);
        }
    }
}
