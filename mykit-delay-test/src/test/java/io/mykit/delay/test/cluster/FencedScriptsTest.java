package io.mykit.delay.test.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.store.FenceTokens;
import io.mykit.delay.queue.store.FencedException;
import io.mykit.delay.queue.store.Keys;
import io.mykit.delay.queue.store.PumpResult;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.store.SingleRedis;
import io.mykit.delay.test.support.PrefixedStore;
import io.mykit.delay.test.support.TestServers;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

/**
 * Two nodes share one Redis and one bucket; the one with the older ownership term is refused by every step that hands
 * jobs over (pump, ready hand-over, retry, park for a burial, sweep), on a real Redis, and the jobs stay for the newer
 * owner.
 */
class FencedScriptsTest {
    private static final int BUCKETS = 1;
    private static final int B = 0;

    @RegisterExtension
    static final PrefixedStore STORE = new PrefixedStore("fence", BUCKETS);

    private JedisPool pool;
    private SingleRedis nodes;
    private Keys keys;
    private FenceTokens oldFence;
    private FenceTokens newFence;
    private RedisDelayStore oldOwner;
    private RedisDelayStore newOwner;
    private final List<Integer> toldFenced = new ArrayList<>();

    @BeforeEach
    void twoNodesOnOneBucket() {
        TestServers.RedisEndpoint redis = TestServers.redis();
        pool = new JedisPool(redis.host(), redis.port());
        nodes = STORE.nodes();
        keys = STORE.keys();
        oldFence = new FenceTokens(BUCKETS);
        newFence = new FenceTokens(BUCKETS);
        oldFence.onFenced(toldFenced::add);
        oldOwner = new RedisDelayStore(nodes, keys, oldFence);
        newOwner = new RedisDelayStore(nodes, keys, newFence);
        // terms whose numbers differ only past 2^53, where Lua numbers could no longer tell them apart
        long older = (1L << 53) + 1;
        oldFence.set(B, FenceTokens.format(older));
        oldOwner.claim(B, oldFence.token(B));
        newFence.set(B, FenceTokens.format(older + 1));
        newOwner.claim(B, newFence.token(B));
    }

    @AfterEach
    void cleanUp() {
        pool.close();
    }

    @Test
    void the_older_term_cannot_pump_and_the_job_stays_for_the_newer_one() {
        long now = System.currentTimeMillis();
        oldOwner.add(List.of(job("j1", now - 10)));

        assertThatThrownBy(() -> oldOwner.pumpDue(B, now, 10, 30_000)).isInstanceOf(FencedException.class);
        assertThat(toldFenced).containsExactly(B);
        assertThat(oldFence.refusals()).isEqualTo(1);

        PumpResult pumped = newOwner.pumpDue(B, now, 10, 30_000);
        assertThat(pumped.jobs()).extracting(Job::getId).containsExactly("j1");
        assertThat(newFence.refusals()).isZero();
    }

    @Test
    void an_older_term_cannot_hand_over_retry_park_or_sweep_jobs_it_pumped_before_the_newer_claim() {
        long now = System.currentTimeMillis();
        RedisDelayStore sameTermBefore = oldOwner;
        // claim order reversed for this case: the old owner pumps in its term, then the new term claims
        try (Jedis jedis = pool.getResource()) {
            jedis.set(keys.owner(B), oldFence.token(B));
        }
        sameTermBefore.add(List.of(job("j2", now - 10), job("j3", now - 10)));
        assertThat(sameTermBefore.pumpDue(B, now, 10, 0).jobs()).hasSize(2);
        newOwner.claim(B, newFence.token(B));

        assertThatThrownBy(() -> oldOwner.toReady(B, "t", List.of("j2"))).isInstanceOf(FencedException.class);
        assertThatThrownBy(() -> oldOwner.retry(B, List.of(job("j3", now)), List.of(now + 1_000)))
                .isInstanceOf(FencedException.class);
        assertThatThrownBy(() -> oldOwner.park(B, List.of(job("j3", now)), 60_000))
                .as("old owner's burial")
                .isInstanceOf(FencedException.class);
        assertThat(oldOwner.sweep(List.of(B), 100, 16, 60_000))
                .as("old owner's sweep")
                .isEmpty();
        assertThat(oldFence.refusals()).isEqualTo(4);

        // the hand-over deadline was Redis TIME + 0 ms, so the new owner's sweep returns both at once
        assertThat(newOwner.sweep(List.of(B), 100, 16, 60_000).get(B).returned())
                .containsExactlyInAnyOrder("j2", "j3");
    }

    @Test
    void broker_senders_learn_that_their_bucket_has_a_newer_owner_before_they_send() {
        assertThat(oldOwner.outranked(List.of(B, B))).containsExactly(B);
        assertThat(newOwner.outranked(List.of(B))).isEmpty();
        assertThat(new RedisDelayStore(nodes, keys).outranked(List.of(B)))
                .as("unfenced standalone")
                .isEmpty();
    }

    @Test
    void a_node_that_never_claimed_the_bucket_is_refused_and_terms_are_recorded_again_in_one_round_trip() {
        RedisDelayStore stranger = new RedisDelayStore(nodes, keys, FenceTokens.fenced(BUCKETS));
        assertThatThrownBy(() -> stranger.pumpDue(B, System.currentTimeMillis(), 10, 30_000))
                .isInstanceOf(FencedException.class);
        assertThat(oldOwner.claimAgain(List.of(B))).containsExactly(B);
        assertThat(newOwner.claimAgain(List.of(B))).isEmpty();
    }

    @Test
    void an_older_term_cannot_claim_back_and_the_same_term_can_claim_again() {
        assertThatThrownBy(() -> oldOwner.claim(B, oldFence.token(B))).isInstanceOf(FencedException.class);
        newOwner.claim(B, newFence.token(B));
        try (Jedis jedis = pool.getResource()) {
            assertThat(jedis.get(keys.owner(B))).isEqualTo(newFence.token(B));
        }
    }

    @Test
    void unfenced_standalone_steps_ignore_the_owner_key() {
        RedisDelayStore standalone = new RedisDelayStore(nodes, keys);
        long now = System.currentTimeMillis();
        standalone.add(List.of(job("j4", now - 10)));
        assertThat(standalone.pumpDue(B, now, 10, 30_000).jobs())
                .extracting(Job::getId)
                .containsExactly("j4");
    }

    @Test
    void reservation_deadlines_come_from_the_redis_clock() {
        long now = System.currentTimeMillis();
        newOwner.add(List.of(job("j5", now - 10)));
        newOwner.pumpDue(B, now, 10, 30_000);
        newOwner.toReady(B, "t", List.of("j5"));
        assertThat(newOwner.reserveFrom(B, "t", 45_000, 1).jobs()).hasSize(1);
        try (Jedis jedis = pool.getResource()) {
            List<String> time = jedis.time();
            long redisNow = Long.parseLong(time.get(0)) * 1_000 + Long.parseLong(time.get(1)) / 1_000;
            double deadline = jedis.zscore(keys.inflight(B), "j5");
            assertThat(deadline - redisNow).isBetween(44_000.0, 45_000.0);
        }
    }

    private static Job job(String id, long dueAt) {
        return new Job(id, "t", null, null, 0, 0, 0, 0, "body", dueAt);
    }
}
