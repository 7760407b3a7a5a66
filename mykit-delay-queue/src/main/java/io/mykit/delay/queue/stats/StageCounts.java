package io.mykit.delay.queue.stats;

/** Jobs of one topic (or of all) by stage in Redis: waiting for their due time, ready for a puller, handed over. */
public record StageCounts(long pending, long ready, long inFlight) {
    public static final StageCounts NONE = new StageCounts(0, 0, 0);

    public StageCounts plus(StageCounts other) {
        return new StageCounts(pending + other.pending, ready + other.ready, inFlight + other.inFlight);
    }

    /** Adds {@code n} to the stage a counter field names: {@code w} waiting, {@code r} ready, {@code f} in flight. */
    StageCounts plus(char stage, long n) {
        return switch (stage) {
            case 'w' -> new StageCounts(pending + n, ready, inFlight);
            case 'r' -> new StageCounts(pending, ready + n, inFlight);
            case 'f' -> new StageCounts(pending, ready, inFlight + n);
            default -> this;
        };
    }
}
