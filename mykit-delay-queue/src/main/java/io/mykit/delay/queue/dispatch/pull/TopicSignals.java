package io.mykit.delay.queue.dispatch.pull;

import io.mykit.delay.common.error.TooManyPollsException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * The signal of every topic a long-poll waits on, and the cap on polls at once: a poll beyond {@code maxPolls} is
 * refused ({@link TooManyPollsException}).
 */
final class TopicSignals {
    private final int maxPolls;
    private final AtomicInteger polls = new AtomicInteger();
    private final Map<String, TopicSignal> signals = new ConcurrentHashMap<>();

    TopicSignals(int maxPolls) {
        this.maxPolls = maxPolls;
    }

    /**
     * The topic's signal, counted as used by this caller; a signal lives only while someone waits on its topic. A poll
     * beyond {@code maxPolls} running at once is refused.
     */
    TopicSignal enter(String topic) {
        if (polls.incrementAndGet() > maxPolls) {
            polls.decrementAndGet();
            throw new TooManyPollsException(
                    "too many long-polls waiting (pull.max-waiting-polls = " + maxPolls + "): try again in a moment");
        }
        return signals.compute(topic, (t, signal) -> (signal == null ? new TopicSignal() : signal).addUser());
    }

    /** The topic's signal for a stream: not one of the {@code maxPolls} (streams have their own cap). */
    TopicSignal watch(String topic) {
        return signals.compute(topic, (t, signal) -> (signal == null ? new TopicSignal() : signal).addUser());
    }

    /** The caller of {@link #watch} is done with the topic. */
    void unwatch(String topic) {
        signals.computeIfPresent(topic, (t, signal) -> signal.removeUser() ? null : signal);
    }

    /** The caller of {@link #enter} is done with the topic. */
    void leave(String topic) {
        signals.computeIfPresent(topic, (t, signal) -> signal.removeUser() ? null : signal);
        polls.decrementAndGet();
    }

    /** Jobs of {@code topic} became ready: wake as many of its long-polls as they need. */
    void fire(String topic, int jobs) {
        TopicSignal signal = signals.get(topic);
        if (signal != null) {
            signal.fire(jobs);
        }
    }

    /** Every topic {@code which} accepts with a waiting poll wakes its oldest async one. */
    void wakeOldest(Predicate<String> which) {
        signals.forEach((topic, signal) -> {
            if (which.test(topic)) {
                signal.wakeOldest(true);
            }
        });
    }

    /** Polls whose caller lost its right to an answer end now. */
    void wakeRevoked() {
        signals.values().forEach(TopicSignal::wakeRevoked);
    }

    /** Every waiting poll looks again at once. */
    void wakeAll() {
        signals.values().forEach(TopicSignal::wakeAll);
    }

    /** Topics with a long-poll waiting right now. */
    int topics() {
        return signals.size();
    }

    /** Long-polls waiting without a thread right now. */
    int asyncWaiters() {
        return signals.values().stream().mapToInt(TopicSignal::asyncWaiters).sum();
    }
}
