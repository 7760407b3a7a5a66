package io.mykit.delay.controller;

/**
 * The largest body each route takes, so that no route reads more than it can use: one job for a push or a reschedule,
 * max-batch-size ids for a batch finish, max-request-bytes for a batch push and the dead-letter calls, and a few KB for
 * every route that takes no body.
 */
public final class BodyLimits {
    /** What a route that takes no body accepts (a client that sends {} or a short form anyway). */
    static final long NO_BODY = 8 * 1024;
    /** A JSON escape spells one byte in at most six ({@code \u0000}). */
    private static final int ESCAPED = 6;
    /** Room for a job's fields besides its body (topic, ids, numbers, spacing). */
    private static final long JOB_FIELDS = 16 * 1024;
    /** Longest job id, quoted and escaped, with its comma. */
    private static final long ID_IN_ARRAY = 128 * ESCAPED + 3;

    private final long job;
    private final long ids;
    private final long many;

    public BodyLimits(long maxRequestBytes, int maxBodyBytes, int maxBatchSize) {
        this.many = maxRequestBytes;
        this.job = Math.min(maxRequestBytes, (long) maxBodyBytes * ESCAPED + JOB_FIELDS);
        this.ids = Math.min(maxRequestBytes, maxBatchSize * ID_IN_ARRAY + 1024);
    }

    /** The limit of a request, by its method and its decoded, normalised path. */
    public long of(String method, String path) {
        String[] segments = path.split("/", -1);
        int n = segments.length;
        boolean post = "POST".equals(method);
        if (post && path.equals("/push") || "PUT".equals(method) && n == 3 && segments[1].equals("jobs")) {
            return job;
        }
        if (post && path.equals("/finish/batch")) {
            return ids;
        }
        if (post && path.equals("/push/batch")
                || n >= 3 && segments[1].equals("dead") && (post || "DELETE".equals(method))) {
            return many;
        }
        return Math.min(many, NO_BODY);
    }

    /** The largest limit of any route. */
    public long largest() {
        return many;
    }
}
