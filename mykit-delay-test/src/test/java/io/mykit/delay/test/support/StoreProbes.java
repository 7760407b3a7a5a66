package io.mykit.delay.test.support;

import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.store.DelayStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * For tests that count the Redis calls the pull path makes: a real store seen through a proxy that reports each call,
 * and a journal that takes state changes and keeps nothing (such tests read Redis only).
 */
public final class StoreProbes {
    private StoreProbes() {}

    /** The real store; {@code seen} gets each call's method name and result after the call returned. */
    public static DelayStore observed(DelayStore real, BiConsumer<String, Object> seen) {
        return (DelayStore) Proxy.newProxyInstance(
                DelayStore.class.getClassLoader(), new Class<?>[] {DelayStore.class}, (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    seen.accept(method.getName(), result);
                    return result;
                });
    }

    /** The real store, counting its calls per method name into {@code calls}. */
    public static DelayStore counted(DelayStore real, Map<String, AtomicInteger> calls) {
        return observed(
                real,
                (name, result) ->
                        calls.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet());
    }

    /** How many times {@code method} was called, 0 when never. */
    public static int calls(Map<String, AtomicInteger> calls, String method) {
        AtomicInteger count = calls.get(method);
        return count == null ? 0 : count.get();
    }

    /** A journal whose every call does nothing and answers null. */
    public static Journal nowhere() {
        return (Journal) Proxy.newProxyInstance(
                Journal.class.getClassLoader(), new Class<?>[] {Journal.class}, (proxy, method, args) -> null);
    }
}
