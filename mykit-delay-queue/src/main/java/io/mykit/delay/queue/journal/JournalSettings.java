package io.mykit.delay.queue.journal;

import java.time.Duration;

/**
 * How the journal writes.
 *
 * @param host this node's name in the log and storing rows
 * @param singleRoundTrip whether a transaction may go to MySQL/MariaDB as one multi-statement round trip
 *     ({@link SingleRoundTrip}); false keeps every transaction on Spring's transaction manager
 * @param deliveryLedger whether each state-change flush is appended as one packed ledger row, folded into the job and
 *     log rows later; reads overlay unfolded entries on the rows either way
 * @param pushCallTimeout how long a push's journal call may wait for the database before it fails (zero: as the driver
 *     does): a push may be committed on its request thread, which must answer in time
 */
public record JournalSettings(String host, boolean singleRoundTrip, boolean deliveryLedger, Duration pushCallTimeout) {

    /** {@link #pushCallTimeout} in milliseconds, as a driver's network timeout takes it (0: none). */
    int pushCallTimeoutMs() {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(0, pushCallTimeout.toMillis()));
    }
}
