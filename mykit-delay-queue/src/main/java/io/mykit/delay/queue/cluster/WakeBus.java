package io.mykit.delay.queue.cluster;

import io.mykit.delay.queue.dispatch.pull.PullTarget;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.loop.SupervisedThread;
import io.mykit.delay.queue.store.RedisChannels;
import io.mykit.delay.queue.timer.TimerGroup;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.JedisPubSub;

/**
 * Wake-ups between nodes over one Redis pub/sub channel {@code {prefix}:wake}: a push that falls due before the owner's
 * idle cap wakes the bucket's owner, and a hand-over to a pull topic wakes long-polls waiting on other nodes (they cost
 * Redis nothing until then). Messages are coalesced per bucket and topic and published by one thread, so a push never
 * waits for them; a publish that fails is tried again, and every (re)subscription makes the local long-polls look once,
 * for what was published while this node was not listening. A message lost all the same costs at most the timer's idle
 * cap or the long-polls' safety re-check.
 *
 * <pre>
 * b &lt;bucket&gt; &lt;due&gt;               the bucket has a job due at &lt;due&gt;
 * t &lt;node&gt; &lt;jobs&gt; &lt;topic&gt;       &lt;node&gt; made &lt;jobs&gt; jobs of &lt;topic&gt; ready
 * f &lt;node&gt; &lt;request&gt;             &lt;node&gt; restores: journal every end you applied in Redis, then answer
 * a &lt;request&gt; &lt;node&gt;             &lt;node&gt; has journaled its ends for &lt;request&gt;
 * </pre>
 *
 * The flush round ({@link #flushEverywhere}) is what makes a restore safe with several nodes: without it a restore
 * reads the journal while another node's finish is applied in Redis but not yet written, and re-adds the job.
 */
public final class WakeBus implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(WakeBus.class);
    private static final long RESUBSCRIBE_PAUSE_MS = 500;
    private static final long FLUSH_ANSWER_MS = 15_000;

    private final RedisChannels channels;
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
    private final StateChangeWriter states;
    private final Map<String, Set<String>> acks = new ConcurrentHashMap<>();
    private final AtomicLong requests = new AtomicLong();
    private final ExecutorService answers = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "mykit-flush-answer");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean running;
    private Thread publisher;
    private Thread subscriber;

    public WakeBus(
            RedisChannels channels,
            String keyPrefix,
            String node,
            TimerGroup timers,
            BucketOwnership ownership,
            PullTarget pull,
            StateChangeWriter states,
            Clock clock,
            long idleCapMs) {
        this.channels = channels;
        this.channel = "{" + keyPrefix + "}:wake";
        this.node = node;
        this.timers = timers;
        this.ownership = ownership;
        this.pull = pull;
        this.states = states;
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

    /**
     * Flushes this node's ends and asks every other live member to do the same; true once all answered in time. A
     * member that does not answer fails the round: the caller retries rather than risk re-adding an ended job.
     */
    public boolean flushEverywhere(long timeoutMs) throws InterruptedException {
        long end = System.currentTimeMillis() + timeoutMs;
        String request = node + "/" + requests.incrementAndGet() + "/" + System.nanoTime();
        Set<String> answered = ConcurrentHashMap.newKeySet();
        acks.put(request, answered);
        try {
            if (!states.flushEndings(timeoutMs)) {
                return false;
            }
            List<String> others = new ArrayList<>(ownership.members());
            others.remove(node);
            if (others.isEmpty()) {
                return true;
            }
            channels.publish(channel, List.of("f " + node + " " + request));
            while (!answered.containsAll(others) && System.currentTimeMillis() < end) {
                Thread.sleep(2);
            }
            if (!answered.containsAll(others)) {
                List<String> silent = new ArrayList<>(others);
                silent.removeAll(answered);
                log.warn(
                        "nodes {} did not confirm their ends within {} ms: the restore waits and tries again",
                        silent,
                        timeoutMs);
                return false;
            }
            return true;
        } finally {
            acks.remove(request);
        }
    }

    private void answerFlush(String request) {
        answers.execute(() -> {
            try {
                if (states.flushEndings(FLUSH_ANSWER_MS)) {
                    channels.publish(channel, List.of("a " + request + " " + node));
                } else {
                    log.warn(
                            "could not journal this node's ends within {} ms for restore {}", FLUSH_ANSWER_MS, request);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                log.warn("could not answer restore {}: {}", request, e.toString());
            }
        });
    }

    private void publishLoop() {
        while (running) {
            Map<Integer, Long> dues = new java.util.HashMap<>();
            Map<String, Integer> readies = new java.util.HashMap<>();
            List<String> messages = new ArrayList<>();
            for (Integer bucket : List.copyOf(dueByBucket.keySet())) {
                Long due = dueByBucket.remove(bucket);
                if (due != null) {
                    dues.put(bucket, due);
                    messages.add("b " + bucket + " " + due);
                }
            }
            for (String topic : List.copyOf(readyByTopic.keySet())) {
                Integer jobs = readyByTopic.remove(topic);
                if (jobs != null) {
                    readies.put(topic, jobs);
                    messages.add("t " + node + " " + jobs + " " + topic);
                }
            }
            if (messages.isEmpty()) {
                LockSupport.park(this);
                continue;
            }
            try {
                if (!readies.isEmpty()) {
                    // counted before the wake-ups go: a node that misses one finds the count at its safety re-check
                    pull.countHandOvers(readies.keySet());
                }
                channels.publish(channel, messages);
            } catch (RuntimeException e) {
                // kept for the next try: a waiting long-poll elsewhere would otherwise wait for its safety re-check
                dues.forEach((bucket, due) -> dueByBucket.merge(bucket, due, Math::min));
                readies.forEach((topic, jobs) -> readyByTopic.merge(topic, jobs, Integer::sum));
                log.debug("wake-ups not published ({}); trying again", e.toString());
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
                channels.listen(channel, listener);
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
            } else if (parts.length == 3 && parts[0].equals("f") && !parts[1].equals(node)) {
                answerFlush(parts[2]);
            } else if (parts.length == 3 && parts[0].equals("a")) {
                Set<String> answered = acks.get(parts[1]);
                if (answered != null) {
                    answered.add(parts[2]);
                }
            }
        } catch (NumberFormatException e) {
            log.debug("ignoring a malformed wake-up '{}'", message);
        }
    }

    @Override
    public void close() {
        running = false;
        answers.shutdownNow();
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

    /** Run again if an error escapes its loop (which catches runtime exceptions only), until the bus closes. */
    private Thread daemon(String name, Runnable body) {
        Thread thread = new SupervisedThread(name, body, () -> running);
        thread.start();
        return thread;
    }

    private final class Listener extends JedisPubSub {
        @Override
        public void onMessage(String channel, String message) {
            receive(message);
        }

        @Override
        public void onSubscribe(String channel, int subscribedChannels) {
            // hand-overs published while this node was not listening woke nobody here
            pull.lookAgain();
        }
    }
}
