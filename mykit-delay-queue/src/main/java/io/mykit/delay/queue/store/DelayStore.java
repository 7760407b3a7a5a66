package io.mykit.delay.queue.store;

/**
 * The working set of jobs, in the domain's verbs, as one object: {@link JobWrites}, {@link Delivery},
 * {@link RestoreMarks}, {@link Fencing} and {@link StoreAdmin} together. Engine classes take the narrowest of these
 * they use; this whole is for what holds one store per gateway (the wiring, the request service, tests). Every verb is
 * atomic per bucket; any failure to reach the store is a {@link io.mykit.delay.common.error.StoreUnavailableException}.
 */
public interface DelayStore extends JobWrites, Delivery, RestoreMarks, Fencing, StoreAdmin {}
