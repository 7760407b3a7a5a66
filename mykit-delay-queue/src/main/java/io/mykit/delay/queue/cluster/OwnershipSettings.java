package io.mykit.delay.queue.cluster;

import java.time.Duration;

/**
 * What this node is in a ZooKeeper mode. {@code pumps} false: its timers are off, so it serves HTTP and answers
 * restores but takes no bucket. {@code buckets} and {@code keyPrefix} make the layout every node of a namespace shares.
 */
public record OwnershipSettings(
        Mode mode, String nodeId, String nodeUrl, boolean pumps, int buckets, String keyPrefix, Timing timing) {

    /** How the buckets are shared out. */
    public enum Mode {
        /** The holder of the leader latch owns every bucket. */
        MASTER_SLAVE("master-slave"),
        /** The live members share the buckets by rendezvous hashing. */
        CLUSTER("cluster");

        private final String label;

        Mode(String label) {
            this.label = label;
        }

        /** The name of the mode as the setting spells it. */
        public String label() {
            return label;
        }
    }

    /**
     * ZooKeeper timing. {@code suspendGrace}: how long buckets keep pumping after SUSPENDED, null for the longest safe
     * grace (4/15 of the negotiated session); never longer than that, whatever is configured.
     */
    public record Timing(Duration connectTimeout, Duration sessionTimeout, Duration suspendGrace) {
        public boolean stopsAtOnce() {
            return suspendGrace != null && suspendGrace.isZero();
        }
    }

    /** The layout record in /layout: a node with another one refuses to start while members live. */
    String layout() {
        return "buckets=" + buckets + " prefix=" + keyPrefix;
    }
}
