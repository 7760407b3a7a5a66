package io.mykit.delay.queue.dispatch.pull;

/** A long-poll waiting without a thread; {@link #cancel} when its client went away. */
public interface PendingPoll {
    void cancel();
}
