package io.mykit.delay.queue.cluster;

import io.mykit.delay.queue.store.FenceTokens;
import io.mykit.delay.queue.timer.TimerGroup;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The buckets this node holds. Each is an ephemeral /owners/bI znode whose czxid is the term's token; the token is
 * claimed in Redis before the bucket's timer starts, and a bucket's timer stops before its znode is deleted. All of
 * this runs on the ownership's thread, except the set of active buckets: a connection loss, a lost leadership or a
 * FENCED reply clears it at once from other threads, and a timer pumps only while its bucket is active.
 */
final class BucketLeases {
    private static final Logger log = LoggerFactory.getLogger(BucketLeases.class);
    /** Terms are written again this often: a Redis that lost its data (or a flushed owner key) is fenced again soon. */
    private static final long RECLAIM_EVERY_MS = 1_000;

    private final CuratorFramework client;
    private final String nodeId;
    private final TimerGroup timers;
    private final FenceTokens fence;
    private final TermClaims claims;
    private final Duration answerWait;
    /** Buckets held in ZooKeeper by this session: touched by the ownership's thread only. */
    private final Set<Integer> owned = new HashSet<>();
    /** Buckets whose timer may pump: cleared at once by a connection loss, whatever the ownership's thread is doing. */
    private final Set<Integer> active = ConcurrentHashMap.newKeySet();

    private long lastReclaim;

    /** {@code answerWait}: how long an answer of ZooKeeper is awaited (the session timeout). */
    BucketLeases(
            CuratorFramework client,
            String nodeId,
            TimerGroup timers,
            FenceTokens fence,
            TermClaims claims,
            Duration answerWait) {
        this.client = client;
        this.nodeId = nodeId;
        this.timers = timers;
        this.fence = fence;
        this.claims = claims;
        this.answerWait = answerWait;
    }

    /** After a reconnect: a bucket stays only if its owner znode still belongs to this session. */
    void keepOnlyOurs(long session) throws Exception {
        for (Integer bucket : new ArrayList<>(owned)) {
            Stat stat = client.checkExists().forPath(ZNodes.owner(bucket));
            if (stat == null || stat.getEphemeralOwner() != session) {
                log.warn("bucket {} is no longer ours after the reconnect", bucket);
                stopBucket(bucket);
                owned.remove(bucket);
            }
        }
    }

    /** Lets go of every held bucket not in {@code desired}: its timer stops (the current pass ends) first. */
    void releaseAllBut(Set<Integer> desired, long session) throws Exception {
        for (Integer bucket : new ArrayList<>(owned)) {
            if (!desired.contains(bucket)) {
                release(bucket, session);
            }
        }
    }

    /** Takes the buckets of {@code desired} not held yet. */
    void acquireMissing(Set<Integer> desired, long session) throws Exception {
        List<Integer> missing =
                desired.stream().filter(bucket -> !owned.contains(bucket)).toList();
        acquire(missing, session);
    }

    /**
     * Takes the owner znodes of {@code wanted} and records their terms in Redis. Every create is sent before any answer
     * is awaited: each is a quorum write, and a takeover of many buckets would otherwise wait for them one by one.
     */
    private void acquire(List<Integer> wanted, long session) throws Exception {
        if (wanted.isEmpty()) {
            return;
        }
        long begin = System.nanoTime();
        byte[] data = nodeId.getBytes(StandardCharsets.UTF_8);
        Map<Integer, CompletableFuture<CuratorEvent>> creates = new TreeMap<>();
        for (int bucket : wanted) {
            CompletableFuture<CuratorEvent> answer = new CompletableFuture<>();
            creates.put(bucket, answer);
            // storingStatIn makes the answer carry the new znode's stat: its czxid is the term's token
            client.create()
                    .storingStatIn(new Stat())
                    .creatingParentContainersIfNeeded()
                    .withMode(CreateMode.EPHEMERAL)
                    .inBackground((c, event) -> answer.complete(event))
                    .forPath(ZNodes.owner(bucket), data);
        }
        Map<Integer, Stat> held = new TreeMap<>();
        List<Integer> existed = new ArrayList<>();
        for (Map.Entry<Integer, CompletableFuture<CuratorEvent>> create : creates.entrySet()) {
            CuratorEvent answer = answerOf(create.getValue());
            KeeperException.Code code = KeeperException.Code.get(answer.getResultCode());
            if (code == KeeperException.Code.OK) {
                held.put(create.getKey(), answer.getStat());
            } else if (code == KeeperException.Code.NODEEXISTS) {
                existed.add(create.getKey());
            } else {
                throw KeeperException.create(code, ZNodes.owner(create.getKey()));
            }
        }
        // one that existed may be ours from before a reconnect; another session's lets go (or expires) first, and
        // the deletion brings us back here
        held.putAll(ownersOf(existed, session));
        List<Integer> ours = new ArrayList<>(held.keySet());
        held.forEach((bucket, stat) -> fence.set(bucket, FenceTokens.format(stat.getCzxid())));
        long znodes = System.nanoTime();
        Set<Integer> outranked;
        try {
            outranked = claims.claimAgain(ours);
        } catch (RuntimeException redisDown) {
            // without the claim a paused older owner could still pump: hold nothing until Redis answers
            log.warn("buckets {}: cannot record our terms in Redis ({}), retrying", ours, redisDown.toString());
            for (int bucket : ours) {
                deleteIfOurs(ZNodes.owner(bucket), session);
            }
            return;
        }
        long terms = System.nanoTime();
        List<String> taken = new ArrayList<>();
        for (int bucket : ours) {
            if (outranked.contains(bucket)) {
                log.warn(
                        "bucket {}: Redis holds a newer term than ours ({}), letting it go",
                        bucket,
                        fence.token(bucket));
                deleteIfOurs(ZNodes.owner(bucket), session);
            } else {
                owned.add(bucket);
                taken.add(bucket + "@" + fence.token(bucket));
            }
        }
        if (!taken.isEmpty()) {
            log.info(
                    "buckets ours (bucket@token): {}; znodes in {} ms, terms in Redis in {} ms",
                    taken,
                    (znodes - begin) / 1_000_000,
                    (terms - znodes) / 1_000_000);
        }
    }

    /** The owner znodes of these buckets that belong to {@code session}, read side by side. */
    private Map<Integer, Stat> ownersOf(Collection<Integer> buckets, long session) throws Exception {
        Map<Integer, CompletableFuture<CuratorEvent>> reads = new TreeMap<>();
        for (int bucket : buckets) {
            CompletableFuture<CuratorEvent> answer = new CompletableFuture<>();
            reads.put(bucket, answer);
            client.checkExists()
                    .inBackground((c, event) -> answer.complete(event))
                    .forPath(ZNodes.owner(bucket));
        }
        Map<Integer, Stat> ours = new TreeMap<>();
        for (Map.Entry<Integer, CompletableFuture<CuratorEvent>> read : reads.entrySet()) {
            Stat stat = answerOf(read.getValue()).getStat();
            if (stat != null && stat.getEphemeralOwner() == session) {
                ours.put(read.getKey(), stat);
            }
        }
        return ours;
    }

    private CuratorEvent answerOf(CompletableFuture<CuratorEvent> answer) throws Exception {
        try {
            return answer.get(answerWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("ZooKeeper call failed", e.getCause());
        }
    }

    /** Now and then, records our terms again: a Redis that lost its data (or a flushed owner key) is fenced again. */
    void reclaimNowAndThen() {
        long now = System.currentTimeMillis();
        if (now - lastReclaim < RECLAIM_EVERY_MS) {
            return;
        }
        lastReclaim = now;
        Set<Integer> outranked;
        try {
            outranked = claims.claimAgain(owned);
        } catch (RuntimeException redisDown) {
            // the steps themselves fail too while Redis is away; the next tick tries again
            return;
        }
        for (int bucket : outranked) {
            log.warn("bucket {}: a newer term claimed it, letting it go", bucket);
            stopBucket(bucket);
            owned.remove(bucket);
        }
    }

    /** Starts the timer of every held bucket not active yet, as long as {@code mayPump} allows. */
    void startTimers(BooleanSupplier mayPump) {
        for (int bucket : owned) {
            if (active.add(bucket)) {
                // a connection loss or lost leadership clears 'active' from another thread: check after adding
                if (!mayPump.getAsBoolean()) {
                    active.remove(bucket);
                    return;
                }
                timers.startBucket(bucket);
                timers.wake(bucket, 0);
            }
        }
    }

    /** Redis refused a step of {@code bucket} as FENCED: a newer term owns it. */
    void dropFenced(int bucket) {
        stopBucket(bucket);
        if (owned.remove(bucket)) {
            log.warn("bucket {} was refused by Redis (FENCED): a newer term owns it", bucket);
        }
    }

    /** Stops the timers of every held bucket; the znodes stay (the connection is down). */
    void pauseAll() {
        active.clear();
        timers.stopBuckets(owned);
    }

    /** The session is gone, and with it every owner znode of ours. */
    void forgetAll() {
        owned.clear();
    }

    /** Stops the timers of every held bucket and forgets them: closing the session deletes their znodes. */
    void stopAll() {
        timers.stopBuckets(owned);
        owned.clear();
    }

    /** Stops every bucket's pumping at once, from any thread: each timer asks before its next pass. */
    void deactivateAll() {
        active.clear();
    }

    /** Stops one bucket's pumping at once, from any thread. */
    void deactivate(int bucket) {
        active.remove(bucket);
    }

    boolean isActive(int bucket) {
        return active.contains(bucket);
    }

    Collection<Integer> activeBuckets() {
        return List.copyOf(active);
    }

    /** Whether this node's timer of {@code bucket} runs and may pump. */
    boolean isPumping(int bucket) {
        return active.contains(bucket) && timers.isPumping(bucket);
    }

    private void release(int bucket, long session) throws Exception {
        stopBucket(bucket);
        owned.remove(bucket);
        deleteIfOurs(ZNodes.owner(bucket), session);
        log.info("bucket {} released", bucket);
    }

    private void stopBucket(int bucket) {
        active.remove(bucket);
        timers.stopBucket(bucket);
    }

    private void deleteIfOurs(String path, long session) throws Exception {
        Stat stat = client.checkExists().forPath(path);
        if (stat != null && stat.getEphemeralOwner() == session) {
            try {
                client.delete().withVersion(stat.getVersion()).forPath(path);
            } catch (KeeperException.NoNodeException | KeeperException.BadVersionException gone) {
                // already gone or replaced: nothing of ours to delete
            }
        }
    }
}
