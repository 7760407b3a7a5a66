package io.mykit.delay.queue.loop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SupervisedThreadTest {
    /** An error whose message cannot be built: logging it throws a second error, as logging under a full heap does. */
    private static final class UnloggableError extends Error {
        @Override
        public String toString() {
            throw new OutOfMemoryError("while logging the first");
        }

        @Override
        public String getMessage() {
            throw new OutOfMemoryError("while logging the first");
        }
    }

    @Test
    void a_body_that_an_error_escapes_runs_again_and_the_thread_stays_alive() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch secondRun = new CountDownLatch(1);
        SupervisedThread thread = new SupervisedThread(
                "supervised-test",
                () -> {
                    if (runs.incrementAndGet() == 1) {
                        throw new UnloggableError();
                    }
                    secondRun.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                () -> true);
        thread.start();
        assertThat(secondRun.await(10, TimeUnit.SECONDS)).as("run again").isTrue();
        LoopHeartbeat beat = thread.heartbeat();
        assertThat(beat.alive()).isTrue();
        assertThat(beat.restarts()).isEqualTo(1);
        assertThat(beat.problem(System.currentTimeMillis(), 1_000)).isEmpty();
        release.countDown();
        thread.join(5_000);
    }

    @Test
    void a_thread_that_ended_while_it_should_run_is_reported_dead() throws Exception {
        SupervisedThread thread = new SupervisedThread("ends-early", () -> {}, () -> true);
        assertThat(thread.heartbeat().problem(0, 1_000)).as("not started yet").isEmpty();
        thread.start();
        thread.join(5_000);
        assertThat(thread.heartbeat().problem(0, 1_000)).contains("thread dead");
    }

    @Test
    void a_body_that_throws_after_its_owner_stopped_it_is_not_run_again() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        SupervisedThread thread = new SupervisedThread(
                "stopped",
                () -> {
                    runs.incrementAndGet();
                    throw new IllegalStateException("closing");
                },
                () -> false);
        thread.start();
        thread.join(5_000);
        assertThat(runs.get()).isEqualTo(1);
        assertThat(thread.heartbeat().problem(0, 1_000)).isEmpty();
    }

    @Test
    void a_pass_running_past_the_stall_limit_or_an_overdue_next_pass_is_a_problem() {
        assertThat(new LoopHeartbeat("l", true, true, 1_000, 0, 500, 0, 0).problem(3_000, 1_000))
                .contains("pass running for 2000 ms");
        assertThat(new LoopHeartbeat("l", true, true, -1, 900, 1_000, 0, 0).problem(2_500, 1_000))
                .contains("next pass 1500 ms overdue");
        assertThat(new LoopHeartbeat("l", true, true, -1, 900, 1_000, 0, 0).problem(1_500, 1_000))
                .isEmpty();
        assertThat(new LoopHeartbeat("l", false, false, -1, 0, 0, 0, 0).problem(9_000, 1_000))
                .as("stopped on purpose")
                .isEmpty();
    }
}
