package io.mykit.delay.core.observability;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.mykit.delay.queue.store.StoreCounts;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples the Redis counts on its own thread every interval; the gauges read the last sample, so a scrape never touches
 * Redis. A failed sample keeps the previous values; mykit.delay.sample.age tells how old they are.
 */
public final class StoreSampler implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StoreSampler.class);

    private final StoreCounts counts;
    private final long intervalMs;
    private final double[] pending;
    private volatile double inflight = Double.NaN;
    private volatile double ready = Double.NaN;
    private volatile long lastSampleAt;
    private volatile boolean lastFailed;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread sampler = new Thread(runnable, "mykit-metrics-sampler");
        sampler.setDaemon(true);
        return sampler;
    });

    public StoreSampler(StoreCounts counts, int buckets, long intervalMs, MeterRegistry registry) {
        this.counts = counts;
        this.intervalMs = intervalMs;
        this.pending = new double[buckets];
        java.util.Arrays.fill(pending, Double.NaN);
        for (int b = 0; b < buckets; b++) {
            int bucket = b;
            Gauge.builder("mykit.delay.pending", this, s -> s.pending[bucket])
                    .description("jobs waiting for their due time in the bucket (sampled)")
                    .tag("bucket", Integer.toString(b))
                    .register(registry);
        }
        Gauge.builder("mykit.delay.inflight", this, s -> s.inflight)
                .description("jobs handed over or reserved, not yet confirmed (sampled)")
                .register(registry);
        Gauge.builder("mykit.delay.ready", this, s -> s.ready)
                .description("jobs in pull topics' ready lists (sampled)")
                .register(registry);
        Gauge.builder(
                        "mykit.delay.sample.age",
                        this,
                        s -> s.lastSampleAt == 0 ? Double.NaN : (System.currentTimeMillis() - s.lastSampleAt) / 1000.0)
                .description("seconds since the last successful Redis sample")
                .baseUnit("seconds")
                .register(registry);
    }

    public void start() {
        thread.scheduleWithFixedDelay(this::sampleOnce, 0, intervalMs, TimeUnit.MILLISECONDS);
    }

    /** One sample; never throws, so the schedule goes on whatever Redis does. */
    void sampleOnce() {
        try {
            List<StoreCounts.BucketCount> sample = counts.sample();
            long inflightJobs = 0;
            long readyJobs = 0;
            for (StoreCounts.BucketCount count : sample) {
                pending[count.bucket()] = count.pending();
                inflightJobs += count.inflight();
                readyJobs += count.ready();
            }
            inflight = inflightJobs;
            ready = readyJobs;
            lastSampleAt = System.currentTimeMillis();
            if (lastFailed) {
                lastFailed = false;
                log.info("metrics sampling reads Redis again");
            }
        } catch (Throwable e) {
            // once per outage: the health endpoint and the store's own logs tell the rest
            if (!lastFailed) {
                lastFailed = true;
                warn(e);
            }
        }
    }

    /** A log that throws too (a full heap) must not end the schedule either. */
    private static void warn(Throwable e) {
        try {
            log.warn("metrics sampling cannot read Redis; gauges keep their last values: {}", e.toString());
        } catch (Throwable again) {
            // the sample age gauge still tells how old the gauges are
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
