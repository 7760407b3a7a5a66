package io.mykit.delay.test.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.mykit.delay.client.Acknowledgement;
import io.mykit.delay.client.DelayJob;
import io.mykit.delay.client.JobView;
import io.mykit.delay.client.NonRetryableException;
import io.mykit.delay.client.ReceivedJob;
import io.mykit.delay.spring.DelayListener;
import io.mykit.delay.spring.DelayListenerRegistry;
import io.mykit.delay.spring.DelayTemplate;
import io.mykit.delay.test.gateway.Gateway;
import io.mykit.delay.test.gateway.GatewayClient;
import io.mykit.delay.test.gateway.TestGateway;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/** A Spring service pushing through {@link DelayTemplate} and receiving in {@link DelayListener} methods. */
class DelayListenerTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Gateway("mykit.delay.pull.poll-interval=50ms")
    private static TestGateway gateway;

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static ConfigurableApplicationContext service(Class<?> configuration, String topic, String... more) {
        List<String> properties = new ArrayList<>(List.of("test.topic=" + topic));
        properties.addAll(List.of(more));
        return TestService.start(configuration, gateway.baseUrl(), properties.toArray(String[]::new));
    }

    private static String status(DelayTemplate template, String id) {
        return template.lookup(id).map(JobView::status).orElse("unknown");
    }

    private static List<String> deadIds(String topic) {
        GatewayClient.Reply dead = gateway.client().get("/dead/" + topic);
        assertThat(dead.status()).as(dead.toString()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        dead.data().forEach(job -> ids.add(job.path("id").asText()));
        return ids;
    }

    @Test
    void a_job_pushed_through_the_template_is_handled_by_a_listener_method_and_finished() {
        String topic = unique("spring-finish");
        try (ConfigurableApplicationContext service = service(BodyAndJob.class, topic)) {
            DelayTemplate template = service.getBean(DelayTemplate.class);
            BodyAndJob received = service.getBean(BodyAndJob.class);

            String soon = template.push(topic, "close order 42", Duration.ofMillis(200));
            String at = template.push(topic, "close order 43", Instant.now().plusMillis(300));

            await().atMost(WAIT).until(() -> received.jobs.keySet().containsAll(List.of(soon, at)));
            assertThat(received.bodies).containsEntry(soon, "close order 42").containsEntry(at, "close order 43");
            assertThat(received.jobs.get(soon).topic()).isEqualTo(topic);
            await().atMost(WAIT).until(() -> "Finish".equals(status(template, soon)));
            await().atMost(WAIT).until(() -> "Finish".equals(status(template, at)));
            assertThat(gateway.client().lookup(soon).data().path("status").asText())
                    .isEqualTo("Finish");
        }
    }

    @Test
    void the_template_gives_jobs_without_tries_the_default_and_keeps_their_own() {
        String topic = unique("spring-defaults");
        try (ConfigurableApplicationContext service =
                service(BodyAndJob.class, topic, "mykit.delay.client.default-tries=3")) {
            DelayTemplate template = service.getBean(DelayTemplate.class);
            String defaulted = template.push(
                    DelayJob.builder(topic).body("a").delay(Duration.ofHours(1)).build());
            List<String> batch = template.pushAll(List.of(
                    DelayJob.builder(topic).tries(7).delay(Duration.ofHours(1)).build()));

            assertThat(template.lookup(defaulted).orElseThrow().tries()).isEqualTo(3);
            assertThat(template.lookup(batch.get(0)).orElseThrow().tries()).isEqualTo(7);
            Instant due = template.reschedule(defaulted, Duration.ofHours(2));
            assertThat(due).isAfter(Instant.now().plus(Duration.ofMinutes(90)));
            template.cancel(batch.get(0));
            assertThat(status(template, batch.get(0))).isEqualTo("Delete");
        }
    }

    @Test
    void a_failing_listener_releases_its_job_until_it_is_dead_and_a_non_retryable_one_buries_it_at_once() {
        String topic = unique("spring-failing");
        String unreadable = unique("spring-unreadable");
        try (ConfigurableApplicationContext service =
                service(Failing.class, topic, "test.unreadable-topic=" + unreadable)) {
            DelayTemplate template = service.getBean(DelayTemplate.class);
            Failing failing = service.getBean(Failing.class);
            String retried = template.push(DelayJob.builder(topic).tries(2).build());
            String buried = template.push(DelayJob.builder(unreadable).tries(10).build());

            await().atMost(WAIT).until(() -> deadIds(topic).contains(retried));
            await().atMost(WAIT).until(() -> deadIds(unreadable).contains(buried));
            assertThat(failing.calls.get(retried).get())
                    .as("deliveries before it was dead")
                    .isGreaterThan(1);
            assertThat(failing.calls.get(buried).get()).isEqualTo(1);
            assertThat(status(template, retried)).isEqualTo("Dead");
            assertThat(status(template, buried)).isEqualTo("Dead");
        }
    }

    @Test
    void a_listener_taking_an_acknowledgement_finishes_its_job_itself() {
        String topic = unique("spring-manual");
        try (ConfigurableApplicationContext service = service(Manual.class, topic)) {
            DelayTemplate template = service.getBean(DelayTemplate.class);
            Manual manual = service.getBean(Manual.class);
            String id = template.push(topic, "by hand", Duration.ZERO);

            await().atMost(WAIT).until(() -> manual.acks.containsKey(id));
            // the method returned: still reserved, nothing was done for it
            assertThat(template.lookup(id).orElseThrow().stage()).isEqualTo("IN_FLIGHT");
            assertThat(status(template, id)).isEqualTo("Ready");

            manual.acks.get(id).finish();
            await().atMost(WAIT).until(() -> "Finish".equals(status(template, id)));
        }
    }

    @Test
    void closing_the_service_waits_for_the_running_handler_and_gives_back_the_jobs_not_started_at_once() {
        String topic = unique("spring-closing");
        ConfigurableApplicationContext service = service(Blocking.class, topic);
        DelayTemplate template = service.getBean(DelayTemplate.class);
        Blocking blocking = service.getBean(Blocking.class);
        List<String> ids = template.pushAll(IntStream.range(0, 5)
                .mapToObj(i -> DelayJob.builder(topic).body("job " + i).build())
                .toList());
        await().atMost(WAIT).until(() -> blocking.started.size() == 1);
        // the other four are in the listener's hands, not started (concurrency 1, credit 5)
        await().atMost(WAIT)
                .until(() -> ids.stream()
                        .filter(id -> !blocking.started.contains(id))
                        .allMatch(id -> "IN_FLIGHT"
                                .equals(template.lookup(id).orElseThrow().stage())));

        Thread closer = new Thread(service::close, "test-service-close");
        closer.start();
        DelayListenerRegistry registry = service.getBean(DelayListenerRegistry.class);
        await().atMost(WAIT).until(() -> !registry.isRunning());
        // the consumer's close waits for the handler (its thread waits on a timeout)
        await().atMost(WAIT).until(() -> threadWaiting("delay-listener-stop-blocking.handle"));
        assertThat(blocking.handled).isEmpty();
        blocking.release.countDown();
        await().atMost(WAIT).until(() -> !closer.isAlive());

        assertThat(blocking.handled).isEqualTo(blocking.started).hasSize(1);
        String finished = blocking.handled.iterator().next();
        List<String> unstarted = ids.stream().filter(id -> !id.equals(finished)).toList();
        GatewayClient http = gateway.client();
        await().atMost(WAIT)
                .until(() -> "Finish"
                        .equals(http.lookup(finished).data().path("status").asText()));
        // back in the ready list now, not after the two minutes of their reservation, and no try spent
        for (String id : unstarted) {
            assertThat(http.lookup(id).data().path("stage").asText()).as(id).isEqualTo("READY");
        }
        List<String> pulled = new ArrayList<>();
        while (pulled.size() < unstarted.size()) {
            JsonNode job = http.get(topic, 60_000, 30_000).data();
            assertThat(job.isNull()).as("a job given back is ready at once").isFalse();
            pulled.add(job.path("id").asText());
            assertThat(job.path("attempts").asInt()).as("attempts of " + job).isZero();
        }
        assertThat(pulled).containsExactlyInAnyOrderElementsOf(unstarted);
    }

    private static boolean threadWaiting(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals(name))
                .anyMatch(thread ->
                        thread.getState() == Thread.State.TIMED_WAITING || thread.getState() == Thread.State.WAITING);
    }

    @Configuration(proxyBeanMethods = false)
    static class BodyAndJob {
        final Map<String, String> bodies = new ConcurrentHashMap<>();
        final Map<String, ReceivedJob> jobs = new ConcurrentHashMap<>();

        @DelayListener(topic = "${test.topic}")
        void handle(String body, ReceivedJob job) {
            bodies.put(job.id(), body);
            jobs.put(job.id(), job);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Failing {
        final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

        @DelayListener(topics = {"${test.topic}"})
        void keepsFailing(ReceivedJob job) {
            calls.computeIfAbsent(job.id(), key -> new AtomicInteger()).incrementAndGet();
            throw new IllegalStateException("order service down");
        }

        @DelayListener(topic = "${test.unreadable-topic}")
        void cannotRead(ReceivedJob job) {
            calls.computeIfAbsent(job.id(), key -> new AtomicInteger()).incrementAndGet();
            throw new NonRetryableException("body is no order");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Manual {
        final Map<String, Acknowledgement> acks = new ConcurrentHashMap<>();

        @DelayListener(topic = "${test.topic}", ttr = "2m")
        void handle(Acknowledgement ack, ReceivedJob job) {
            acks.put(job.id(), ack);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Blocking {
        final Set<String> started = ConcurrentHashMap.newKeySet();
        final Set<String> handled = ConcurrentHashMap.newKeySet();
        final CountDownLatch release = new CountDownLatch(1);

        @DelayListener(topic = "${test.topic}", concurrency = "1", credit = "5", ttr = "2m", id = "blocking.handle")
        void handle(ReceivedJob job) throws InterruptedException {
            started.add(job.id());
            release.await();
            handled.add(job.id());
        }
    }
}
