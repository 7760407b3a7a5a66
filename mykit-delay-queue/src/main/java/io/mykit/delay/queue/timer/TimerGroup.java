package io.mykit.delay.queue.timer;

import io.mykit.delay.queue.loop.WakeableLoop;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The due path's background loops on this node: one timer per bucket, started and stopped one by one as this node gains
 * and loses buckets, and the helpers (sweeper, repairer) that run while the timers run.
 */
public final class TimerGroup {
    private final List<BucketTimer> timers;
    private final List<WakeableLoop> helpers = new ArrayList<>();

    public TimerGroup(List<BucketTimer> timers) {
        this.timers = List.copyOf(timers);
    }

    public void addHelper(WakeableLoop loop) {
        helpers.add(loop);
    }

    /** Every timer asks {@code mayPump} before each pump (ownership can be lost between two passes). */
    public void gate(IntPredicate mayPump) {
        timers.forEach(timer -> timer.gate(mayPump));
    }

    public void startHelpers() {
        helpers.forEach(WakeableLoop::start);
    }

    /** Stops every loop; a pass under way ends first. */
    public void stop() {
        helpers.forEach(WakeableLoop::stop);
        timers.forEach(WakeableLoop::stop);
    }

    public void startBucket(int bucket) {
        timers.get(bucket).start();
    }

    /** Stops one bucket's timer and returns once its current pass, if any, has ended. */
    public void stopBucket(int bucket) {
        timers.get(bucket).stop();
    }

    /** Stops these buckets' timers together: all are told first, so their current passes end side by side. */
    public void stopBuckets(Collection<Integer> buckets) {
        buckets.forEach(bucket -> timers.get(bucket).halt());
        buckets.forEach(this::stopBucket);
    }

    public boolean isPumping(int bucket) {
        return timers.get(bucket).isRunning();
    }

    /** A job of {@code bucket} falls due at {@code dueTime}: make sure its timer looks by then. */
    public void wake(int bucket, long dueTime) {
        timers.get(bucket).wakeBy(dueTime);
    }

    public List<BucketTimer> timers() {
        return timers;
    }

    /** Every timer and helper, for health. */
    public List<WakeableLoop> loops() {
        List<WakeableLoop> loops = new ArrayList<>(timers);
        loops.addAll(helpers);
        return loops;
    }
}
