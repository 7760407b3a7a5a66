package io.mykit.delay.queue.store;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobCodec;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@link DelayStore} on one Redis or a Redis Cluster ({@link RedisNodes}), made of one part per concern
 * ({@link RedisJobWrites}, {@link RedisDelivery}, {@link RedisRestoreMarks}, {@link RedisFencing},
 * {@link RedisStoreAdmin}, {@link RedisChannels}) that share the connections, scripts and fencing tokens
 * ({@link StoreCalls}); this class only hands each verb to its part. Each script touches the keys of one bucket, which
 * share a hash tag and so a slot; batches over many buckets are pipelined per node.
 */
public class RedisDelayStore implements DelayStore {
    private final StoreCalls calls;
    private final RedisJobWrites jobs;
    private final RedisDelivery delivery;
    private final RedisRestoreMarks restores;
    private final RedisFencing fencing;
    private final RedisStoreAdmin admin;
    private final RedisChannels channels;

    /** A store whose bucket steps are not fenced (standalone). */
    public RedisDelayStore(RedisNodes redis, Keys keys) {
        this(redis, keys, new FenceTokens(keys.buckets()));
    }

    /** A store writing compact records (see {@link JobCodec}). */
    public RedisDelayStore(RedisNodes redis, Keys keys, FenceTokens fence) {
        this(redis, keys, fence, true);
    }

    /**
     * {@code compactRecords} false writes every record as JSON, the form every reader takes (this gateway's Java and
     * scripts read both forms), for nodes sharing the Redis that read JSON records only.
     */
    public RedisDelayStore(RedisNodes redis, Keys keys, FenceTokens fence, boolean compactRecords) {
        this.calls = new StoreCalls(redis, keys, fence, compactRecords ? JobCodec::encode : JobCodec::encodeJson);
        Endings endings = new Endings(calls);
        this.jobs = new RedisJobWrites(calls, endings);
        this.delivery = new RedisDelivery(calls, endings);
        this.restores = new RedisRestoreMarks(calls, jobs);
        this.fencing = new RedisFencing(calls);
        this.admin = new RedisStoreAdmin(calls);
        this.channels = new RedisChannels(calls);
    }

    public FenceTokens fence() {
        return calls.fence();
    }

    public Keys keys() {
        return calls.keys();
    }

    /** Loads the scripts up front so the first push pays no NOSCRIPT round trip. */
    public void loadScripts() {
        calls.loadScripts();
    }

    /** Pub/sub on this store's Redis (cross-node wake-ups). */
    public RedisChannels channels() {
        return channels;
    }

    // job writes

    @Override
    public List<String> add(Collection<Job> added) {
        return jobs.add(added);
    }

    @Override
    public int respawn(Collection<Job> respawned) {
        return jobs.respawn(respawned);
    }

    @Override
    public RescheduleResult reschedule(Job job) {
        return jobs.reschedule(job);
    }

    @Override
    public RemoveResult delete(String jobId) {
        return jobs.delete(jobId);
    }

    @Override
    public Optional<StoredJob> peek(String jobId) {
        return jobs.peek(jobId);
    }

    @Override
    public int bucketOf(String jobId) {
        return jobs.bucketOf(jobId);
    }

    @Override
    public int buckets() {
        return jobs.buckets();
    }

    // delivery

    @Override
    public PumpResult pumpDue(int bucket, long now, int limit, long handOverMs) {
        return delivery.pumpDue(bucket, now, limit, handOverMs);
    }

    @Override
    public PumpResult pumpDueToReady(int bucket, long now, int limit) {
        return delivery.pumpDueToReady(bucket, now, limit);
    }

    @Override
    public PumpResult pumpDueToReady(int bucket, long now, int limit, List<Claim> claims) {
        return delivery.pumpDueToReady(bucket, now, limit, claims);
    }

    @Override
    public int toReady(int bucket, String topic, List<String> ids) {
        return delivery.toReady(bucket, topic, ids);
    }

    @Override
    public List<Job> reserve(String topic, long ttrMs, int max) {
        return delivery.reserve(topic, ttrMs, max);
    }

    @Override
    public Reservation reserveFrom(int bucket, String topic, long ttrMs, int max) {
        return delivery.reserveFrom(bucket, topic, ttrMs, max);
    }

    @Override
    public boolean unreserve(Job job) {
        return delivery.unreserve(job);
    }

    @Override
    public RemoveResult finish(String jobId, long now) {
        return delivery.finish(jobId, now);
    }

    @Override
    public List<RemoveResult> finishAll(List<String> jobIds, long now) {
        return delivery.finishAll(jobIds, now);
    }

    @Override
    public Released release(String jobId, long dueAt, long now, int defaultTries) {
        return delivery.release(jobId, dueAt, now, defaultTries);
    }

    @Override
    public boolean touch(String jobId, long ttrMs) {
        return delivery.touch(jobId, ttrMs);
    }

    @Override
    public Map<Integer, Swept> sweep(Collection<Integer> buckets, int limitPerBucket, int defaultTries, long parkMs) {
        return delivery.sweep(buckets, limitPerBucket, defaultTries, parkMs);
    }

    @Override
    public int forget(int bucket, List<String> ids) {
        return delivery.forget(bucket, ids);
    }

    @Override
    public List<String> park(int bucket, List<Job> parked, long parkMs) {
        return delivery.park(bucket, parked, parkMs);
    }

    @Override
    public int retry(int bucket, List<Job> retried, List<Long> dueTimes) {
        return delivery.retry(bucket, retried, dueTimes);
    }

    // restore marks

    @Override
    public void beginRestore() {
        restores.beginRestore();
    }

    @Override
    public void keepRestoring() {
        restores.keepRestoring();
    }

    @Override
    public void endRestore() {
        restores.endRestore();
    }

    @Override
    public List<String> addUnlessEnded(Collection<Job> added) {
        return restores.addUnlessEnded(added);
    }

    @Override
    public void markEnded(String jobId) {
        restores.markEnded(jobId);
    }

    @Override
    public void forgetFinishMarks(Collection<String> jobIds) {
        restores.forgetFinishMarks(jobIds);
    }

    @Override
    public void markFinished(String jobId, long at) {
        restores.markFinished(jobId, at);
    }

    @Override
    public Map<String, Long> finishMarksBefore(long before, int limitPerBucket) {
        return restores.finishMarksBefore(before, limitPerBucket);
    }

    // fencing

    @Override
    public void claim(int bucket, String token) {
        fencing.claim(bucket, token);
    }

    @Override
    public Set<Integer> claimAgain(Collection<Integer> buckets) {
        return fencing.claimAgain(buckets);
    }

    @Override
    public Set<Integer> outranked(Collection<Integer> buckets) {
        return fencing.outranked(buckets);
    }

    // admin

    @Override
    public boolean hasEpoch() {
        return admin.hasEpoch();
    }

    @Override
    public void writeEpoch() {
        admin.writeEpoch();
    }

    @Override
    public long clear() {
        return admin.clear();
    }
}
