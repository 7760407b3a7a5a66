package io.mykit.delay.queue.store;

/**
 * What one bucket migration did. Jobs moved are counted by the stage they kept: {@code waiting} (due slices),
 * {@code ready} (a ready list), {@code inFlight} (handed over or reserved); {@code withReservations} of them carried a
 * pull reservation count. {@code alreadyThere}: moved jobs whose new bucket held them already (a re-run after an
 * interrupted migration). {@code readyEntriesDropped}: entries the old buckets' ready lists no longer need: those of
 * the ready jobs that moved, and leftovers of jobs that had ended. {@code tombstonesDropped}: tombstones of buckets
 * that no longer exist.
 */
public record MigrationReport(
        int from,
        int to,
        long waiting,
        long ready,
        long inFlight,
        long withReservations,
        long alreadyThere,
        long readyEntriesDropped,
        long tombstonesDropped,
        int bucketsRetired,
        long millis) {

    public long moved() {
        return waiting + ready + inFlight;
    }

    @Override
    public String toString() {
        return "buckets " + from + " -> " + to + ": moved " + moved() + " jobs (waiting " + waiting + ", ready " + ready
                + ", in flight " + inFlight + "; " + withReservations + " with pull reservations; " + alreadyThere
                + " already in their new bucket), dropped " + readyEntriesDropped + " old ready-list entries and "
                + tombstonesDropped + " tombstones, retired " + bucketsRetired + " buckets, in " + millis + " ms";
    }
}
