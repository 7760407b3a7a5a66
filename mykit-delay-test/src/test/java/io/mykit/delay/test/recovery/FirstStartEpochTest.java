package io.mykit.delay.test.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.core.GatewayLifecycle;
import io.mykit.delay.queue.recovery.RedisLossWatch;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.OwnRedis;
import io.mykit.delay.test.support.TestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import redis.clients.jedis.Jedis;

/**
 * A first start (empty Redis, empty journal) holds its Redis epoch before anything can push (the start-up warm-up or a
 * client), and a start after Redis lost the data of pending jobs does not, so the Redis-loss watch still restores them
 * (a private Redis). Before, a first start's epoch waited for the watch's first pass on its own thread, which the
 * warm-up starts together with its first pushes: a 1M drain bench saw the watch take the pushed jobs for lost data and
 * restore them all while they were being pushed (2 of 4 runs).
 */
class FirstStartEpochTest {
    /** Between the engine's writers (GatewayLifecycle) and the start-up warm-up: before any push can be taken. */
    private static final int BEFORE_ANY_PUSH = GatewayLifecycle.PHASE + 512;

    /** Whether Redis held the gateway's epoch when the probe's phase started. */
    private static final AtomicReference<Boolean> EPOCH_BEFORE_ANY_PUSH = new AtomicReference<>();

    private static final ApplicationContextInitializer<ConfigurableApplicationContext> PROBE =
            context -> context.getBeanFactory().registerSingleton("epochProbe", new EpochProbe(context));

    private record EpochProbe(ApplicationContext context) implements SmartLifecycle {
        @Override
        public void start() {
            EPOCH_BEFORE_ANY_PUSH.set(context.getBean(RedisDelayStore.class).hasEpoch());
        }

        @Override
        public void stop() {}

        @Override
        public boolean isRunning() {
            return EPOCH_BEFORE_ANY_PUSH.get() != null;
        }

        @Override
        public int getPhase() {
            return BEFORE_ANY_PUSH;
        }
    }

    @Test
    void a_first_start_holds_its_epoch_before_any_push_and_a_lost_redis_is_still_restored() {
        try (OwnRedis redis = TestServers.startOwnRedis()) {
            TestGateway first = TestGateway.start(redis.host(), redis.port(), PROBE);
            String prefix = first.keyPrefix();
            String database = first.database();
            List<String> ids = new ArrayList<>();
            try {
                assertThat(EPOCH_BEFORE_ANY_PUSH.get())
                        .as("epoch of a first start before any push")
                        .isTrue();
                GatewayClient client = first.client();
                for (int i = 0; i < 3; i++) {
                    ids.add(client.push("{\"topic\":\"first-start\",\"delay\":600000}")
                            .data()
                            .asText());
                }
                assertThat(first.bean(RedisLossWatch.class).restores())
                        .as("restores after a first start")
                        .isZero();
            } finally {
                first.stop();
            }
            try (Jedis jedis = new Jedis(redis.host(), redis.port(), 30_000)) {
                assertThat(jedis.flushAll()).isEqualTo("OK");
            }

            EPOCH_BEFORE_ANY_PUSH.set(null);
            try (TestGateway again = TestGateway.start(
                    redis.host(),
                    redis.port(),
                    PROBE,
                    "mykit.delay.recovery.check-interval=200ms",
                    "mykit.delay.redis.key-prefix=" + prefix,
                    "spring.datasource.url=" + TestServers.jdbcUrl(database))) {
                assertThat(EPOCH_BEFORE_ANY_PUSH.get())
                        .as("epoch of a start after a Redis loss, before any push")
                        .isFalse();
                await().atMost(Duration.ofSeconds(20))
                        .untilAsserted(() -> assertThat(
                                        again.bean(RedisLossWatch.class).restores())
                                .isEqualTo(1));
                for (String id : ids) {
                    assertThat(again.client().lookup(id).data().path("stage").asText())
                            .as(id)
                            .isEqualTo("DELAYED");
                }
            } finally {
                TestServers.dropDatabase(database);
            }
        }
    }
}
