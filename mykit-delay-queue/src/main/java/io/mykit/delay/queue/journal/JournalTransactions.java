package io.mykit.delay.queue.journal;

import io.mykit.delay.common.error.StoreUnavailableException;
import java.util.List;
import java.util.function.Supplier;
import org.apache.ibatis.exceptions.PersistenceException;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * How the journal's transactions reach the database. Statements known up front go to MySQL/MariaDB as one
 * multi-statement round trip when the connections allow it ({@link SingleRoundTrip}), otherwise through Spring's
 * transaction manager; work that reads between its writes always takes the transaction manager. Every call is
 * {@link #guarded}: a deadlock victim runs again, and a database failure becomes a {@link StoreUnavailableException}.
 */
final class JournalTransactions {
    private static final int DEADLOCK_RETRIES = 3;

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final boolean singleRoundTripWanted;
    /** Whether transactions go as one round trip: null until a connection has told. */
    private volatile Boolean singleRoundTrip;

    JournalTransactions(JdbcTemplate jdbc, TransactionTemplate tx, boolean singleRoundTripWanted) {
        this.jdbc = jdbc;
        this.tx = tx;
        this.singleRoundTripWanted = singleRoundTripWanted;
    }

    /**
     * Runs {@code statements} (not empty) in one transaction and returns each one's count of rows changed (-1: not
     * told); with {@code timeoutMs} > 0 a database that stops answering fails the call after that long.
     * {@code beforeCommit} runs once the statements are sent: before the COMMIT on the transaction manager, after it
     * when they went in one round trip with their COMMIT.
     */
    int[] commit(List<MultiRowInsert.Sql> statements, int timeoutMs, Runnable beforeCommit) {
        if (singleRoundTrip()) {
            int[] changed = guarded(() -> SingleRoundTrip.run(jdbc, statements, timeoutMs));
            beforeCommit.run();
            return changed;
        }
        return guarded(() -> tx.execute(status -> {
            if (timeoutMs > 0) {
                jdbc.execute((ConnectionCallback<Void>) connection -> {
                    SingleRoundTrip.bound(connection, timeoutMs);
                    return null;
                });
            }
            int[] changed = runEach(statements);
            beforeCommit.run();
            return changed;
        }));
    }

    /** {@link #commit} with no deadline and nothing to run before the COMMIT. */
    int[] commit(List<MultiRowInsert.Sql> statements) {
        return commit(statements, 0, () -> {});
    }

    /** Runs {@code work} in one transaction of the transaction manager. */
    <T> T inTransaction(TransactionCallback<T> work) {
        return guarded(() -> tx.execute(work));
    }

    /** Runs the statements one by one (inside the caller's transaction); returns each one's count of rows changed. */
    int[] runEach(List<MultiRowInsert.Sql> statements) {
        int[] changed = new int[statements.size()];
        for (int i = 0; i < changed.length; i++) {
            changed[i] = MultiRowInsert.update(
                    jdbc, statements.get(i).text(), statements.get(i).args());
        }
        return changed;
    }

    /** Asks a connection once; while the database does not answer, this call takes the transaction manager. */
    private boolean singleRoundTrip() {
        Boolean known = singleRoundTrip;
        if (known == null) {
            if (!singleRoundTripWanted) {
                known = false;
            } else {
                try {
                    known = SingleRoundTrip.works(jdbc);
                } catch (DataAccessException down) {
                    return false;
                }
            }
            singleRoundTrip = known;
        }
        return known;
    }

    /** Runs journal work; a transaction chosen as a deadlock victim was rolled back whole, so it is run again. */
    static <T> T guarded(Supplier<T> work) {
        for (int attempt = 1; ; attempt++) {
            try {
                return work.get();
            } catch (PessimisticLockingFailureException e) {
                if (attempt >= DEADLOCK_RETRIES) {
                    throw new StoreUnavailableException("journal", rootMessage(e), e);
                }
            } catch (DataAccessException | TransactionException | PersistenceException e) {
                throw new StoreUnavailableException("journal", rootMessage(e), e);
            }
        }
    }

    /** {@link #guarded} for work without a result. */
    static void guardedRun(Runnable work) {
        guarded(() -> {
            work.run();
            return null;
        });
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
