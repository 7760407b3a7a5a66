package io.mykit.delay.queue.journal;

/**
 * Before a restore (or the stranded-job repair) reads the journal, every end already applied in Redis must be in the
 * journal, on every node: otherwise it re-adds a job another node just finished. Standalone: this node's state writer
 * flushes; ZooKeeper modes: every live member flushes and answers.
 */
@FunctionalInterface
public interface EndingsBarrier {

    /** True when every node's ends opened before this call are journaled, within the timeout. */
    boolean await(long timeoutMs) throws InterruptedException;
}
