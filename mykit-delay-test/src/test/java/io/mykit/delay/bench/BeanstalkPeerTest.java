package io.mykit.delay.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The bench's beanstalkd peer against a real beanstalkd (Debian's package; the test fails when it is absent): the
 * client speaks its protocol, a prefill survives the restart into the measured fsync mode, a paused tube holds its jobs
 * until the instant, and the driver's steady runs deliver every put job once in both consumer styles.
 */
class BeanstalkPeerTest {
    private static final BenchSettings SETTINGS = BenchSettings.fromProperties(new Properties());
    private static final byte[] BODY = "x".repeat(100).getBytes(StandardCharsets.US_ASCII);

    @Test
    void the_client_puts_reserves_in_batches_deletes_and_reads_stats() throws Exception {
        try (Beanstalkd server = Beanstalkd.start(SETTINGS, Beanstalkd.Mode.parse("always"));
                BeanstalkClient client = server.connect()) {
            client.use("t");
            client.watchOnly("t");
            long first = client.put(0, BeanstalkDriver.TTR_SECONDS, BODY);
            long[] more = client.putPipelined(4, 0, BeanstalkDriver.TTR_SECONDS, BODY);
            long later = client.put(BeanstalkDriver.FAR_DELAY_SECONDS, BeanstalkDriver.TTR_SECONDS, BODY);

            BeanstalkClient.Reserved reserved = client.reserve(1);
            List<BeanstalkClient.Reserved> batch = client.reserveReady(99);

            assertThat(reserved.id()).isEqualTo(first);
            assertThat(reserved.body()).isEqualTo(BODY);
            assertThat(batch)
                    .extracting(BeanstalkClient.Reserved::id)
                    .containsExactly(more[0], more[1], more[2], more[3]);
            assertThat(client.deleteAndReserve(List.of(first), 0)).isNull();
            client.deleteAll(batch.stream().map(BeanstalkClient.Reserved::id).toList());
            Map<String, String> stats = client.stats();
            assertThat(stats)
                    .containsEntry("current-jobs-ready", "0")
                    .containsEntry("current-jobs-reserved", "0")
                    .containsEntry("current-jobs-delayed", "1")
                    .containsEntry("cmd-delete", "5");
            assertThat(later).isGreaterThan(more[3]);
            assertThat(server.rssBytes()).isPositive();
        }
    }

    @Test
    void a_prefill_written_without_fsync_is_served_after_the_restart_and_a_paused_tube_holds_it() throws Exception {
        Set<Long> ids = ConcurrentHashMap.newKeySet();
        try (Beanstalkd server = Beanstalkd.startPrefilled(
                SETTINGS,
                Beanstalkd.Mode.parse("always"),
                filling -> new BeanstalkDriver(filling, BODY.length, CpuMeter.ofServers(Map.of()))
                        .prefill("drain", 60, 0, 2, ids))) {
            assertThat(server.stats()).containsEntry("current-jobs-ready", "60");
            try (BeanstalkClient client = server.connect()) {
                client.pauseTube("drain", 1);
            }
            long due = System.currentTimeMillis() + 1_000;
            CpuMeter meter = CpuMeter.ofServers(Map.of("beanstalkd", server.handle()));

            LoadDriver.Drain drain =
                    new BeanstalkDriver(server, BODY.length, meter).drain("drain", ids, due, 2, 100, 500, 30_000);

            assertThat(drain.received()).isEqualTo(60);
            assertThat(drain.finished()).isEqualTo(60);
            assertThat(drain.missing() + drain.unexpected() + drain.duplicates())
                    .isZero();
            // the pause ended at most a round trip before the due time taken after its answer
            assertThat(drain.latenessMs().min()).isGreaterThan(-100);
            assertThat(drain.cpu().serverMicrosPerJob("beanstalkd", drain.received()))
                    .isGreaterThanOrEqualTo(0);
            assertThat(server.stats()).containsEntry("current-jobs-ready", "0");
        }
    }

    @Test
    void a_steady_run_delivers_every_put_job_once_in_both_consumer_styles() throws Exception {
        try (Beanstalkd server = Beanstalkd.start(SETTINGS, Beanstalkd.Mode.NEVER)) {
            CpuMeter meter = CpuMeter.ofServers(Map.of("beanstalkd", server.handle()));
            BeanstalkDriver driver = new BeanstalkDriver(server, BODY.length, meter);
            for (int batch : new int[] {100, 1}) {
                LoadDriver.Lateness l =
                        driver.steadyDelivery("steady-" + batch, 100, 1, 2, 2, batch, 1000, 1000, 500, 10_000);

                assertThat(l.pushed()).as("batch %d", batch).isEqualTo(100);
                assertThat(PeerTargets.complete(l))
                        .as("batch %d: %s", batch, PeerTargets.received(l))
                        .isTrue();
                assertThat(l.pushErrors() + l.pullErrors() + l.finishErrors())
                        .as(l.firstError())
                        .isZero();
                assertThat(l.latenessMs().count()).isEqualTo(100);
                // a job put with a 1 s delay is not handed out before it fell due
                assertThat(l.latenessMs().min()).isGreaterThan(-100);
            }
        }
    }

    @Test
    void fsync_modes_map_to_beanstalkds_flags() {
        assertThat(Beanstalkd.Mode.parseList("always, 50,never"))
                .extracting(Beanstalkd.Mode::flag)
                .containsExactly("-f0", "-f50", "-F");
        assertThatThrownBy(() -> Beanstalkd.Mode.parse("sometimes")).isInstanceOf(IllegalArgumentException.class);
    }
}
