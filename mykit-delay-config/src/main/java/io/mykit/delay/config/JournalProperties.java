package io.mykit.delay.config;

import static io.mykit.delay.config.Checks.check;
import static io.mykit.delay.config.Checks.positive;

import java.time.Duration;
import java.util.List;

/** {@code mykit.delay.journal.*}: the MySQL journal's write batching, repair and retention. */
public class JournalProperties {
    public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);
    public static final int DEFAULT_WRITERS = 4;
    /** Most rows one group commit or one state-change flush writes. */
    private int batchSize = 1000;
    /**
     * Threads committing pushes: one gathers and inserts while the others wait for their COMMITs, so a push waits for
     * about one commit instead of the previous group's too. More writers make smaller groups, each push costing more
     * CPU, so 1 suits a CPU-starved host.
     */
    private int writers = DEFAULT_WRITERS;
    /**
     * How long the state writer gathers changes before a flush: a job's Ready and Finish then often share one flush,
     * which writes only the last status to the job row (0 = flush whatever is queued at once).
     */
    private Duration stateLinger = Duration.ofMillis(50);
    /**
     * How long a small push group waits for more pushes before its commit while the journal is busy (the previous small
     * commit ended moments ago): a commit's fixed cost is then shared by more pushes. An idle gateway never waits.
     */
    private Duration pushLinger = Duration.ofMillis(1);
    /** A push journaled this long ago but never confirmed in Redis is re-added by the repairer. */
    private Duration repairAfter = Duration.ofSeconds(10);
    /**
     * On MySQL/MariaDB, send each journal transaction as one multi-statement round trip (BEGIN; ...; COMMIT) instead of
     * five; needs the driver's allowMultiQueries, which the gateway adds to a jdbc:mysql: URL unless it is named.
     */
    private boolean oneTrip = true;
    /**
     * Journal each state-change flush (deliveries, finishes, retries) as one packed ledger row, folded into the job and
     * log rows in the background, instead of a status UPDATE and a log row per job: a burst's deliveries cost the
     * database one INSERT per flush. Readers of the journal tables see statuses once folded; the gateway's own reads
     * see them at once.
     */
    private boolean ledger = false;
    /** Ledger rows are folded once they are this old (the fold gathers more changes per transaction). */
    private Duration ledgerFoldAfter = Duration.ofSeconds(1);
    /** About how many ledger changes one fold transaction applies. */
    private int ledgerFoldSize = 5_000;
    /** How long a push waits for its group commit before answering 503. */
    private Duration pushTimeout = Duration.ofSeconds(10);
    /** Finished and cancelled jobs (and their log rows) last changed longer ago are purged; 0 or negative keeps all. */
    private Duration retention = DEFAULT_RETENTION;
    /** Most job rows one purge statement deletes (their log rows go in statements of the same size). */
    private int purgeBatchSize = 500;
    /** Pause between two purge statements, so the purge never crowds out the commits of pushes. */
    private Duration purgePause = Duration.ofMillis(200);
    /** How often the purge looks for rows past the retention. */
    private Duration purgeInterval = Duration.ofMinutes(10);

    public int getBatchSize() {
        return batchSize;
    }

    public void setBatchSize(int batchSize) {
        this.batchSize = batchSize;
    }

    public int getWriters() {
        return writers;
    }

    public void setWriters(int writers) {
        this.writers = writers;
    }

    public Duration getStateLinger() {
        return stateLinger;
    }

    public void setStateLinger(Duration stateLinger) {
        this.stateLinger = stateLinger;
    }

    public Duration getPushLinger() {
        return pushLinger;
    }

    public void setPushLinger(Duration pushLinger) {
        this.pushLinger = pushLinger;
    }

    public Duration getRepairAfter() {
        return repairAfter;
    }

    public void setRepairAfter(Duration repairAfter) {
        this.repairAfter = repairAfter;
    }

    public boolean isLedger() {
        return ledger;
    }

    public void setLedger(boolean ledger) {
        this.ledger = ledger;
    }

    public Duration getLedgerFoldAfter() {
        return ledgerFoldAfter;
    }

    public void setLedgerFoldAfter(Duration ledgerFoldAfter) {
        this.ledgerFoldAfter = ledgerFoldAfter;
    }

    public int getLedgerFoldSize() {
        return ledgerFoldSize;
    }

    public void setLedgerFoldSize(int ledgerFoldSize) {
        this.ledgerFoldSize = ledgerFoldSize;
    }

    public boolean isOneTrip() {
        return oneTrip;
    }

    public void setOneTrip(boolean oneTrip) {
        this.oneTrip = oneTrip;
    }

    public Duration getPushTimeout() {
        return pushTimeout;
    }

    public void setPushTimeout(Duration pushTimeout) {
        this.pushTimeout = pushTimeout;
    }

    public Duration getRetention() {
        return retention;
    }

    public void setRetention(Duration retention) {
        this.retention = retention;
    }
    /** Whether ended jobs are purged at all. */
    public boolean isRetentionEnabled() {
        return retention != null && retention.toMillis() > 0;
    }

    public int getPurgeBatchSize() {
        return purgeBatchSize;
    }

    public void setPurgeBatchSize(int purgeBatchSize) {
        this.purgeBatchSize = purgeBatchSize;
    }

    public Duration getPurgePause() {
        return purgePause;
    }

    public void setPurgePause(Duration purgePause) {
        this.purgePause = purgePause;
    }

    public Duration getPurgeInterval() {
        return purgeInterval;
    }

    public void setPurgeInterval(Duration purgeInterval) {
        this.purgeInterval = purgeInterval;
    }

    void validate(List<String> errors) {
        check(errors, batchSize >= 1, "mykit.delay.journal.batch-size must be >= 1");
        check(errors, writers >= 1, "mykit.delay.journal.writers must be >= 1");
        check(
                errors,
                ledgerFoldAfter != null && !ledgerFoldAfter.isNegative(),
                "mykit.delay.journal.ledger-fold-after must be >= 0");
        check(errors, ledgerFoldSize >= 1, "mykit.delay.journal.ledger-fold-size must be >= 1");
        check(errors, positive(repairAfter), "mykit.delay.journal.repair-after must be > 0");
        check(
                errors,
                stateLinger != null && !stateLinger.isNegative() && stateLinger.toMillis() <= 1_000,
                "mykit.delay.journal.state-linger must be 0-1s");
        check(
                errors,
                pushLinger != null && !pushLinger.isNegative() && pushLinger.toMillis() <= 20,
                "mykit.delay.journal.push-linger must be 0-20ms");
        check(
                errors,
                purgeBatchSize >= 1 && purgeBatchSize <= 10_000,
                "mykit.delay.journal.purge-batch-size must be 1..10000");
        check(errors, purgePause != null && !purgePause.isNegative(), "mykit.delay.journal.purge-pause must be >= 0");
        check(errors, positive(purgeInterval), "mykit.delay.journal.purge-interval must be > 0");
    }
}
