package io.mykit.delay.queue.cluster;

import io.mykit.delay.queue.store.FenceTokens;
import io.mykit.delay.queue.timer.TimerGroup;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.stream.IntStream;

/** One node owns every bucket, unfenced. */
public final class StandaloneOwnership implements BucketOwnership {
    private final TimerGroup timers;
    private final int buckets;
    private final String node;
    private final FenceTokens fence;
    private final LongSupplier restores;
    private final boolean pumps;
    private final List<Integer> all;
    private volatile boolean running;

    /** {@code pumps} false: timers are switched off, the node only serves HTTP. */
    public StandaloneOwnership(
            TimerGroup timers, int buckets, String node, FenceTokens fence, LongSupplier restores, boolean pumps) {
        this.timers = timers;
        this.buckets = buckets;
        this.node = node;
        this.fence = fence;
        this.restores = restores;
        this.pumps = pumps;
        this.all = IntStream.range(0, buckets).boxed().toList();
    }

    @Override
    public void start() {
        if (pumps) {
            running = true;
            all.forEach(timers::startBucket);
        }
    }

    @Override
    public void stop() {
        running = false;
        all.forEach(timers::stopBucket);
    }

    @Override
    public boolean isActive(int bucket) {
        return running;
    }

    @Override
    public Collection<Integer> activeBuckets() {
        return running ? all : List.of();
    }

    @Override
    public boolean runsChores() {
        return true;
    }

    @Override
    public List<String> members() {
        return List.of(node);
    }

    @Override
    public ClusterView view() {
        List<ClusterView.BucketView> views = new ArrayList<>(buckets);
        for (int b = 0; b < buckets; b++) {
            views.add(new ClusterView.BucketView(b, node, null, timers.isPumping(b)));
        }
        return new ClusterView(
                "standalone", node, "NONE", null, List.of(node), fence.refusals(), restores.getAsLong(), views);
    }
}
