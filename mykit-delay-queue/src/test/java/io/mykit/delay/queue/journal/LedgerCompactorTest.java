package io.mykit.delay.queue.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LedgerCompactorTest {
    private final AtomicLong millis = new AtomicLong(1_000_000);
    private final AtomicLong submitted = new AtomicLong();
    private final AtomicLong askedBefore = new AtomicLong();
    private int foldReturns = 500;
    private long foldTakesMs = 30;

    @Test
    void folds_rows_older_than_fold_after_and_rests_twice_the_fold_while_changes_keep_coming() {
        LedgerCompactor folder = new LedgerCompactor(journal(), clock(), 1_000, 5_000, submitted::get);

        submitted.set(10);
        long next = folder.runOnce();
        assertThat(askedBefore.get()).as("rows made before now - fold-after").isEqualTo(1_000_000 - 1_000);
        assertThat(next).as("busy: rest 2 x 30 ms").isEqualTo(millis.get() + 60);

        submitted.set(20);
        foldTakesMs = 5;
        assertThat(folder.runOnce())
                .as("busy, quick fold: the least rest")
                .isEqualTo(millis.get() + LedgerCompactor.MIN_PAUSE_MS);

        assertThat(folder.runOnce()).as("no new change since: fold on at once").isEqualTo(millis.get());

        foldReturns = 0;
        assertThat(folder.runOnce()).as("nothing to fold: look again later").isEqualTo(millis.get() + 200);
    }

    private Journal journal() {
        return (Journal) Proxy.newProxyInstance(
                Journal.class.getClassLoader(), new Class<?>[] {Journal.class}, (proxy, method, args) -> {
                    if (method.getName().equals("foldLedger")) {
                        askedBefore.set((Long) args[0]);
                        millis.addAndGet(foldTakesMs);
                        return foldReturns;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    private Clock clock() {
        return new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return Instant.ofEpochMilli(millis.get());
            }
        };
    }
}
