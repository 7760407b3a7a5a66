package io.mykit.delay.queue.cluster;

import io.mykit.delay.queue.dispatch.PullTarget;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.timer.TimerGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.JedisPubSub;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Wake-ups between nodes over one Redis pub/sub channel {@code {prefix}:wake}: a push that falls due before the owner's
 * idle cap wakes the bucket's owner, and a hand-over to a pull topic wakes long-polls waiting on other nodes. Messages
 * are coalesced per bucket and topic and published by one thread, so a push never waits for them; a lost message
 * costs at most the timer's idle cap or the long-poll's poll interval.
 *
 * <pre>
 * b &lt;bucket&gt; &lt;due&gt;               the bucket has a job due at &lt;due&gt;
 * t &lt;node&gt; &lt;jobs&gt; &lt;topic&gt;       &lt;node&gt; made &lt;jobs&gt; jobs of &lt;topic&gt; ready
 * </pre>
 */
public final class WakeBus implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(WakeBus.class);
    private static final long RESUBSCRIBE_PAUSE_MS = 500;

    private final RedisDelayStore store;
    private final String channel;
    private final String node;
    private final TimerGroup timers;
    private final BucketOwnership ownership;
    private final PullTarget pull;
    private final Clock clock;
    private final long idleCapMs;
    private final Map<Integer, Long> dueByBucket = new ConcurrentHashMap<>();
    private final Map<String, Integer> readyByTopic = new ConcurrentHashMap<>();
    private volatile Listener listener = new Listener();
    private volatile boolean running;
    private Thread publisher;
    private Thread subscriber;

    public WakeBus(RedisDelayStore store, String keyPrefix, String node, TimerGroup timers, BucketOwnership ownership,
                   PullTarget pull, Clock clock, long idleCapMs) {
        this.store = store;
        this.channel = "{" + keyPrefix + "}:wake";
        this.node = node;
        this.timers = timers;
        this.ownership = ownership;
        this.pull = pull;
        this.clock = clock;
        this.idleCapMs = idleCapMs;
    }

    public void start() {
        running = true;
        publisher = daemon("mykit-wake-publish", this::publishLoop);
        subscriber = daemon("mykit-wake-listen", this::listenLoop);
    }

    /** A job of {@code bucket} falls due at {@code dueTime}: wake its timer here, or its owner elsewhere. */
    public void wake(int bucket, long dueTime) {
        if (ownership.isActive(bucket)) {
            timers.wake(bucket, dueTime);
            return;
        }
        // the owner looks at least every idle cap anyway: only an earlier due time is worth a message
        if (running && dueTime < clock.millis() + idleCapMs) {
            dueByBucket.merge(bucket, dueTime, Math::min);
            LockSupport.unpark(publisher);
        }
    }

    /** This node made {@code jobs} jobs of {@code topic} ready: long-polls on other nodes may take them. */
    public void handedOver(String topic, int jobs) {
        if (running) {
            readyByTopic.merge(topic, jobs, Integer::sum);
            LockSupport.unpark(publisher);
        }
    }

    private void publishLoop() {
        while (running) {
            List<String> messages = new ArrayList<>();
            for (Integer bucket : List.copyOf(dueByBucket.keySet())) {
                Long due = dueByBucket.remove(bucket);
                if (due != null) {
                    messages.add("b " + bucket + " " + due);
                }
            }
            for (String topic : List.copyOf(readyByTopic.keySet())) {
                Integer jobs = readyByTopic.remove(topic);
                if (jobs != null) {
                    messages.add("t " + node + " " + jobs + " " + topic);
                }
            }
            if (messages.isEmpty()) {
                LockSupport.park(this);
                continue;
            }
            try {
                store.publish(channel, messages);
            } catch (RuntimeException e) {
                log.debug("wake-ups not published ({}); the owners' idle caps cover them", e.toString());
                LockSupport.parkNanos(RESUBSCRIBE_PAUSE_MS * 1_000_000);
            }
        }
    }

    private void listenLoop() {
        while (running) {
            try {
                listener = new Listener();
                if (!running) {
                    return;
                }
                store.listen(channel, listener);
            } catch (RuntimeException e) {
                if (running) {
                    log.debug("wake-up channel lost ({}), subscribing again", e.toString());
                    LockSupport.parkNanos(RESUBSCRIBE_PAUSE_MS * 1_000_000);
                }
            }
        }
    }

    void receive(String message) {
        String[] parts = message.split(" ", 4);
        try {
            if (parts.length == 3 && parts[0].equals("b")) {
                int bucket = Integer.parseInt(parts[1]);
                if (bucket >= 0 && bucket < timers.timers().size() && ownership.isActive(bucket)) {
                    timers.wake(bucket, Long.parseLong(parts[2]));
                }
            } else if (parts.length == 4 && parts[0].equals("t") && !parts[1].equals(node)) {
                pull.wakeTopic(parts[3], Integer.parseInt(parts[2]));
            }
        } catch (NumberFormatException e) {
            log.debug("ignoring a malformed wake-up '{}'", message);
        }
    }

    @Override
    public void close() {
        running = false;
        if (listener.isSubscribed()) {
            try {
                listener.unsubscribe();
            } catch (RuntimeException e) {
                log.debug("unsubscribe: {}", e.toString());
            }
        }
        if (publisher != null) {
            LockSupport.unpark(publisher);
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private final class Listener extends JedisPubSub {
        @Override
        public void onMessage(String channel, String message) {
            receive(message);
        }
    }
}
