package io.mykit.delay.queue.loop;

/** Whether a once-per-cluster chore (the repair, the purge, the automatic restore) is this node's to run now. */
@FunctionalInterface
public interface ChoreTurn {

    /** True while this node runs the chore; asked before every pass, so a change of owner takes effect at once. */
    boolean isMine();
}
