package io.mykit.delay.common.model;

import java.util.Arrays;
import java.util.Optional;

/**
 * Journal states of a job. Codes 0..6 are the original mykit-delay's; new states extend after them.
 *
 * <pre>
 *  push ──▶ WaitPut ──(stored in Redis)──▶ Delay ──(due)──▶ Ready ──(ack)──▶ Finish
 *              │                            ▲  │              │
 *              └──(stranded repair)─────────┘  │              └──(ttr / dispatch deadline passed)──▶ Delay
 *                                              └──(cancel)──▶ Delete
 * </pre>
 *
 * A push writes its job rows in Delay at once, with the WaitPut log row, and lists them in a storing row until Redis
 * holds them: the journal reads such a job as WaitPut (the queue module's journal package-info).
 */
public enum JobStatus {
    /** Journaled, not yet confirmed in Redis. */
    WaitPut(0),
    /** Waiting in a bucket for its due time. */
    Delay(1),
    /** Due: handed to a delivery target or reserved by a puller. */
    Ready(2),
    /** Delivered and acknowledged. */
    Finish(3),
    /** Cancelled before delivery. */
    Delete(4),
    /** Re-added to Redis from the journal. */
    Restore(5),
    /** Returned after a consumer failed (original code, kept for compatibility). */
    ConsumerFailRestore(6),
    /** Used up its tries or its ttl. */
    Dead(7);

    private final int code;

    JobStatus(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** Finish, Delete and Dead jobs are never delivered again without an explicit operator action. */
    public boolean isTerminal() {
        return this == Finish || this == Delete || this == Dead;
    }

    public static Optional<JobStatus> ofCode(int code) {
        return Arrays.stream(values()).filter(s -> s.code == code).findFirst();
    }
}
