package io.mykit.delay.queue.store;

/** Whole-store steps: the epoch marks that tell whether Redis lost data, and clearing the working set. */
public interface StoreAdmin {

    /** Whether Redis holds every epoch mark this gateway wrote: false means Redis (or one node of it) lost data. */
    boolean hasEpoch();

    /** Writes the epoch marks (after a restore, or on a first start). */
    void writeEpoch();

    /** Removes every bucket, in-flight set, pool and ready list of this gateway (not the epoch); returns keys gone. */
    long clear();
}
