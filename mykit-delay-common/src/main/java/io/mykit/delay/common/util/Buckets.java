package io.mykit.delay.common.util;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/** The bucket of a job is a pure function of its id, so any node finds a job in O(1). */
public final class Buckets {
    private Buckets() {}

    public static int of(String jobId, int bucketCount) {
        CRC32 crc = new CRC32();
        crc.update(jobId.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % bucketCount);
    }
}
