package io.mykit.delay.queue.dispatch.pull;

import java.util.Collection;
import java.util.Map;

/**
 * Hand-overs to ready lists, counted where every node can read them: per slot of topics (a topic's slot is its name's
 * hash modulo {@link #SLOTS}), so that one read per safety re-check says which topics another node handed jobs to since
 * the last one, whatever the number of topics with waiting polls.
 */
public interface HandOverCounts {
    /** Slots topics are counted in: a fixed number, so one read costs the same with ten topics or a million. */
    int SLOTS = 1024;

    /** Counts nothing and reads nothing: every hand-over is this node's own and wakes its polls directly. */
    HandOverCounts NONE = new HandOverCounts() {
        @Override
        public void count(Collection<String> topics) {}

        @Override
        public Map<Integer, Long> read() {
            return Map.of();
        }
    };

    /** Jobs of these topics were made ready on this node (for the other nodes to see). */
    void count(Collection<String> topics);

    /** The count of each slot counted so far (slots never counted are absent); one Redis call. */
    Map<Integer, Long> read();

    static int slotOf(String topic) {
        return Math.floorMod(topic.hashCode(), SLOTS);
    }
}
