package io.mykit.delay.queue.journal;

/** Told how many rows each purge statement deleted, by table (the metrics' purged-rows counter). */
@FunctionalInterface
public interface PurgedRows {

    /** {@code rows} rows of {@code table} were deleted by one statement. */
    void purged(String table, long rows);
}
