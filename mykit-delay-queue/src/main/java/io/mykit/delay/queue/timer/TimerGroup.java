package io.mykit.delay.queue.timer;

import java.util.ArrayList;
import java.util.List;

/** The due road's background loops on this node: one timer per bucket, the sweeper and the stranded-job repairer. */
public final class TimerGroup {
    private final List<BucketTimer> timers;
    private final List<WakeableLoop> helpers = new ArrayList<>();

    public TimerGroup(List<BucketTimer> timers) {
        this.timers = List.copyOf(timers);
    }

    public void addHelper(WakeableLoop loop) {
        helpers.add(loop);
    }

    public void start() {
        timers.forEach(WakeableLoop::start);
        helpers.forEach(WakeableLoop::start);
    }

    public void stop() {
        helpers.forEach(WakeableLoop::stop);
        timers.forEach(WakeableLoop::stop);
    }

    /** A job of {@code bucket} falls due at {@code dueTime}: make sure its timer looks by then. */
    public void wake(int bucket, long dueTime) {
        timers.get(bucket).wakeBy(dueTime);
    }

    public List<BucketTimer> timers() {
        return timers;
    }
}
