package io.mykit.delay.queue.store;

import java.nio.charset.StandardCharsets;

/**
 * Waiting jobs of a bucket are spread over {@link #COUNT} small ZSETs ({@link Keys#dueSlice}) instead of one large one:
 * a ZSET of up to 128 members (Redis' {@code zset-max-listpack-entries}) is stored as one compact listpack, a fraction
 * of the memory per job of a large ZSET's skiplist. 1,024 slices keep a bucket compact up to 1,024 x 128 waiting jobs;
 * past that a slice turns into a skiplist and costs what one large ZSET does. An index ZSET ({@link Keys#due}) holds
 * each non-empty slice's earliest due time, so the pump still finds the due jobs first. The slice is a pure function of
 * the id; {@code lua/include/waiting.lua} computes the same one.
 */
public final class DelaySlices {
    public static final int COUNT = 1024;
    private static final long MODULUS = 2_147_483_647L;

    private DelaySlices() {}

    /** A polynomial hash of the id's UTF-8 bytes, unrelated to the CRC32 that chose its bucket. */
    public static int of(String jobId) {
        long h = 0;
        for (byte b : jobId.getBytes(StandardCharsets.UTF_8)) {
            h = (h * 31 + (b & 0xff)) % MODULUS;
        }
        return (int) (h % COUNT);
    }
}
