package io.mykit.delay.queue.store;

import java.util.List;
import redis.clients.jedis.JedisPubSub;

/** Redis pub/sub on the store's connections: the wake-ups nodes send each other. */
public final class RedisChannels {
    private final StoreCalls calls;

    RedisChannels(StoreCalls calls) {
        this.calls = calls;
    }

    /** Publishes messages on a channel in one round trip. */
    public void publish(String channel, List<String> messages) {
        // a cluster passes a PUBLISH on to every node: any node will do, here the one of the channel name's slot
        calls.batch(pipes -> messages.forEach(message -> pipes.on(channel).publish(channel, message)));
    }

    /** Listens on a channel until {@code listener} unsubscribes or the connection breaks (then it throws). */
    public void listen(String channel, JedisPubSub listener) {
        calls.redis().client().subscribe(listener, channel);
    }
}
