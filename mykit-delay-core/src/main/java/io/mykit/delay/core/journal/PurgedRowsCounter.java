package io.mykit.delay.core.journal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.mykit.delay.queue.journal.PurgedRows;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.ObjectProvider;

/** Counts purged journal rows as {@code mykit.delay.journal.purged{table=...}} when a meter registry exists. */
final class PurgedRowsCounter implements PurgedRows {
    static final String NAME = "mykit.delay.journal.purged";

    private final ObjectProvider<MeterRegistry> meters;
    private final Map<String, Counter> byTable = new ConcurrentHashMap<>();

    PurgedRowsCounter(ObjectProvider<MeterRegistry> meters) {
        this.meters = meters;
    }

    @Override
    public void purged(String table, long rows) {
        // looked up at first use: the registry may come from an auto-configuration created after the engine
        MeterRegistry registry = meters.getIfAvailable();
        if (registry == null) {
            return;
        }
        byTable.computeIfAbsent(
                        table,
                        t -> Counter.builder(NAME)
                                .tag("table", t)
                                .description("Journal rows deleted by the retention purge")
                                .register(registry))
                .increment(rows);
    }
}
