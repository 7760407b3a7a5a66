package io.mykit.delay.spring;

import io.mykit.delay.client.ConsumerListener;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether each running listener has its stream open, and since when it has or has not, as its consumer reports it: what
 * the connected-listeners gauge and the delayListeners health read.
 */
public class ListenerStates {
    private final Clock clock;
    private final Map<String, ListenerState> states = new ConcurrentHashMap<>();

    public ListenerStates(Clock clock) {
        this.clock = clock;
    }

    /**
     * What one listener's stream is doing.
     *
     * @param since when it last connected or, if not connected, since when it has had no stream
     * @param lastCloseCode how its last stream ended (WebSocket close code, refused handshake status, 0 broken), or -1
     */
    public record ListenerState(
            String id, List<String> topics, boolean connected, Instant since, int lastCloseCode, String lastReason) {}

    /** Starts tracking a listener (not connected from now on) and answers the consumer listener that keeps it. */
    ConsumerListener track(String id, List<String> topics) {
        states.put(id, new ListenerState(id, topics, false, clock.instant(), -1, null));
        return new ConsumerListener() {
            @Override
            public void onConnected() {
                states.computeIfPresent(
                        id,
                        (key, old) -> new ListenerState(
                                id, topics, true, clock.instant(), old.lastCloseCode(), old.lastReason()));
            }

            @Override
            public void onDisconnected(int code, String reason) {
                // a listener failing to reconnect over and over stays unconnected since its first loss
                states.computeIfPresent(
                        id,
                        (key, old) -> new ListenerState(
                                id, topics, false, old.connected() ? clock.instant() : old.since(), code, reason));
            }
        };
    }

    /** Forgets a listener that was stopped on purpose. */
    void untrack(String id) {
        states.remove(id);
    }

    /** Every running listener by id. */
    public Map<String, ListenerState> snapshot() {
        return new TreeMap<>(states);
    }

    /** Running listeners whose stream is open. */
    public int connected() {
        return (int) states.values().stream().filter(ListenerState::connected).count();
    }

    Instant now() {
        return clock.instant();
    }
}
