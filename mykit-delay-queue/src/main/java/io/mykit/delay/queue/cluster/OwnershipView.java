package io.mykit.delay.queue.cluster;

import io.mykit.delay.queue.store.FenceTokens;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;

/**
 * This node's {@link ClusterView} in a ZooKeeper mode. Owners and tokens come from the local cache of ZooKeeper, never
 * from ZooKeeper itself, so {@code GET /cluster} answers at once while ZooKeeper is out of reach.
 */
final class OwnershipView {
    private final CuratorCache cache;
    private final OwnershipSettings settings;
    private final FenceTokens fence;
    private final LongSupplier restores;

    /** {@code restores}: how many automatic restores (Redis loss) this node ran. */
    OwnershipView(CuratorCache cache, OwnershipSettings settings, FenceTokens fence, LongSupplier restores) {
        this.cache = cache;
        this.settings = settings;
        this.fence = fence;
        this.restores = restores;
    }

    /** The view with this node's connection state, leader, live members and which of its timers pump. */
    ClusterView read(String connection, String leader, List<String> members, IntPredicate pumping) {
        Map<Integer, ChildData> owners = new HashMap<>();
        String prefix = ZNodes.OWNERS + "/b";
        cache.stream()
                .filter(data -> data.getPath().startsWith(prefix))
                .forEach(data -> owners.put(Integer.parseInt(data.getPath().substring(prefix.length())), data));
        List<ClusterView.BucketView> views = new ArrayList<>(settings.buckets());
        for (int b = 0; b < settings.buckets(); b++) {
            ChildData owner = owners.get(b);
            views.add(new ClusterView.BucketView(
                    b,
                    owner == null ? null : new String(owner.getData(), StandardCharsets.UTF_8),
                    owner == null ? null : FenceTokens.format(owner.getStat().getCzxid()),
                    pumping.test(b)));
        }
        return new ClusterView(
                settings.mode().label(),
                settings.nodeId(),
                connection,
                leader,
                members,
                fence.refusals(),
                restores.getAsLong(),
                views);
    }
}
