package io.mykit.delay.queue.cluster;

import java.nio.charset.StandardCharsets;
import java.util.Collection;

/**
 * Rendezvous (highest random weight) hashing of buckets over members: every node computes the same owner from the same
 * member list, and a member joining or leaving moves only the buckets it wins or held.
 */
public final class Rendezvous {
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private Rendezvous() {}

    /** The member that wins {@code bucket}, or null when there is none. */
    public static String owner(int bucket, Collection<String> members) {
        String best = null;
        long bestScore = 0;
        for (String member : members) {
            long score = score(member, bucket);
            if (best == null
                    || Long.compareUnsigned(score, bestScore) > 0
                    || (score == bestScore && member.compareTo(best) < 0)) {
                best = member;
                bestScore = score;
            }
        }
        return best;
    }

    static long score(String member, int bucket) {
        long h = FNV_OFFSET;
        for (byte b : member.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * FNV_PRIME;
        }
        return mix(h ^ ((bucket + 1L) * GOLDEN));
    }

    /** A finaliser that spreads nearby inputs (bucket 1, bucket 2) over the whole range. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
