package io.mykit.delay.queue.cluster;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The live gateways: one ephemeral /members/node-id each, whose data is the node's base URL, marked serve-only while
 * its timers have not started or are off (such a member gets no bucket but is asked to flush before restores).
 */
final class Membership {
    /** Marks a member whose timers are off: it serves HTTP and answers restores, but gets no bucket. */
    private static final String SERVE_ONLY = " serve-only";

    private final CuratorFramework client;
    private final CuratorCache cache;
    private final String nodeId;
    private final String nodeUrl;

    Membership(CuratorFramework client, CuratorCache cache, String nodeId, String nodeUrl) {
        this.client = client;
        this.cache = cache;
        this.nodeId = nodeId;
        this.nodeUrl = nodeUrl;
    }

    /** Makes this node's entry belong to {@code session} and say whether it takes buckets. */
    void register(long session, boolean takesBuckets) throws Exception {
        String path = ZNodes.member(nodeId);
        byte[] data = (takesBuckets ? nodeUrl : nodeUrl + SERVE_ONLY).getBytes(StandardCharsets.UTF_8);
        // as the cache last saw it: no ZooKeeper round trip on a reconcile that finds us registered already
        Optional<ChildData> seen = cache.get(path);
        if (seen.isPresent()
                && seen.get().getStat().getEphemeralOwner() == session
                && Arrays.equals(seen.get().getData(), data)) {
            return;
        }
        Stat stat = client.checkExists().forPath(path);
        if (stat != null && stat.getEphemeralOwner() == session) {
            if (!Arrays.equals(client.getData().forPath(path), data)) {
                client.setData().forPath(path, data);
            }
            return;
        }
        if (stat != null) {
            // left by an earlier run of this node whose session has not expired yet
            deleteQuietly(path);
        }
        client.create()
                .creatingParentContainersIfNeeded()
                .withMode(CreateMode.EPHEMERAL)
                .forPath(path, data);
    }

    /** The other live members, read from ZooKeeper. */
    List<String> others() throws Exception {
        List<String> live = new ArrayList<>(
                client.checkExists().forPath(ZNodes.MEMBERS) == null
                        ? List.of()
                        : client.getChildren().forPath(ZNodes.MEMBERS));
        // an earlier run of this very node whose session has not expired yet is not another node
        live.remove(nodeId);
        return live;
    }

    /** The live members that take buckets, read from ZooKeeper. */
    List<String> takingBuckets() throws Exception {
        List<String> members = new ArrayList<>();
        for (String member : client.getChildren().forPath(ZNodes.MEMBERS)) {
            try {
                if (!new String(client.getData().forPath(ZNodes.member(member)), StandardCharsets.UTF_8)
                        .endsWith(SERVE_ONLY)) {
                    members.add(member);
                }
            } catch (KeeperException.NoNodeException left) {
                // gone between the listing and the read: not a member any more
            }
        }
        return members;
    }

    /** Live members (node ids, sorted) as the local cache last saw them: answers while ZooKeeper is out of reach. */
    List<String> live() {
        List<String> members = new ArrayList<>();
        cache.stream()
                .map(ChildData::getPath)
                .filter(path -> path.startsWith(ZNodes.MEMBERS + "/"))
                .forEach(path -> members.add(path.substring(ZNodes.MEMBERS.length() + 1)));
        members.sort(null);
        return members;
    }

    private void deleteQuietly(String path) throws Exception {
        try {
            client.delete().forPath(path);
        } catch (KeeperException.NoNodeException gone) {
            // expired meanwhile
        }
    }
}
