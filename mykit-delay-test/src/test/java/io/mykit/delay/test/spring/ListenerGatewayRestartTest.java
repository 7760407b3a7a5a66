package io.mykit.delay.test.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mykit.delay.client.ConsumerState;
import io.mykit.delay.client.DelayJob;
import io.mykit.delay.client.ReceivedJob;
import io.mykit.delay.spring.DelayListener;
import io.mykit.delay.spring.DelayListenerRegistry;
import io.mykit.delay.spring.DelayTemplate;
import io.mykit.delay.test.gateway.TestGateway;
import io.mykit.delay.test.support.TestServers;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/** A running {@link DelayListener} across a restart of its gateway on the same port, Redis and journal. */
class ListenerGatewayRestartTest {
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final int JOBS = 30;

    @Test
    void a_gateway_restart_under_a_running_listener_loses_no_job() {
        String topic = "spring-restart-" + UUID.randomUUID().toString().substring(0, 8);
        int port = TestServers.freePort();
        TestGateway first = TestGateway.start("server.port=" + port, "mykit.delay.pull.poll-interval=50ms");
        String prefix = first.keyPrefix();
        String database = first.database();
        TestGateway second = null;
        try (ConfigurableApplicationContext service =
                TestService.start(Recording.class, first.baseUrl(), "test.topic=" + topic)) {
            DelayTemplate template = service.getBean(DelayTemplate.class);
            Recording received = service.getBean(Recording.class);
            DelayListenerRegistry listeners = service.getBean(DelayListenerRegistry.class);
            // due over the next seconds: some before the stop, some while the gateway is down, some after
            List<String> ids = template.pushAll(IntStream.range(0, JOBS)
                    .mapToObj(i -> DelayJob.builder(topic)
                            .body("job " + i)
                            .delay(Duration.ofMillis(500 + 200L * i))
                            .build())
                    .toList());
            await().atMost(WAIT).until(() -> !received.ids.isEmpty());

            first.stop();
            await().atMost(WAIT)
                    .until(() -> listeners.listenerStates().values().stream()
                            .noneMatch(state -> state == ConsumerState.CONNECTED));
            second = TestGateway.start(
                    "server.port=" + port,
                    "mykit.delay.pull.poll-interval=50ms",
                    "mykit.delay.redis.key-prefix=" + prefix,
                    "spring.datasource.url=" + TestServers.jdbcUrl(database));

            // each failed check looks the missing jobs up: not too often
            await().atMost(WAIT)
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> assertThat(received.ids)
                            .as(() -> missing(template, ids, received.ids, listeners))
                            .containsAll(ids));
            await().atMost(WAIT)
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> assertThat(unfinished(template, ids)).isEmpty());
            assertThat(listeners.listenerStates()).containsValue(ConsumerState.CONNECTED);
        } finally {
            if (second != null) {
                second.close();
            }
            // the keys and the journal are the first gateway's: its close deletes them
            first.close();
        }
    }

    /** The jobs not received, each with its status, stage and attempts, and the listeners' states. */
    private static String missing(
            DelayTemplate template, List<String> ids, Set<String> received, DelayListenerRegistry listeners) {
        StringBuilder text = new StringBuilder("listeners ")
                .append(listeners.listenerStates())
                .append("; not received (id=status/stage/attempts):");
        ids.stream()
                .filter(id -> !received.contains(id))
                .forEach(id -> text.append(' ')
                        .append(id)
                        .append('=')
                        .append(template.lookup(id)
                                .map(job -> job.status() + "/" + job.stage() + "/" + job.attempts())
                                .orElse("unknown")));
        return text.toString();
    }

    /** The jobs whose journal does not read Finish, as id=status/stage/attempts. */
    private static List<String> unfinished(DelayTemplate template, List<String> ids) {
        return ids.stream()
                .map(id -> id + "="
                        + template.lookup(id)
                                .map(job -> job.status() + "/" + job.stage() + "/" + job.attempts())
                                .orElse("unknown"))
                .filter(line -> !line.contains("=Finish/"))
                .toList();
    }

    @Configuration(proxyBeanMethods = false)
    static class Recording {
        final Set<String> ids = ConcurrentHashMap.newKeySet();

        @DelayListener(topic = "${test.topic}")
        void handle(ReceivedJob job) {
            ids.add(job.id());
        }
    }
}
