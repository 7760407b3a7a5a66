package io.mykit.delay.core;

import java.io.IOException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The requests of the start-up warm-up ({@link StartupWarmup}): rounds over the whole path of a job in topic
 * {@value #TOPIC}, bursts of a batch puller's size, and the clean-up that ends every warm-up job of this start.
 */
final class WarmupTraffic {
    static final String TOPIC = StartupWarmup.TOPIC;
    private static final Logger log = LoggerFactory.getLogger(WarmupTraffic.class);
    private static final Pattern ID = Pattern.compile("\"data\":\"([^\"]+)\"");
    private static final Pattern IDS = Pattern.compile("\"id\":\"([^\"]+)\"");
    /** Every this many rounds a burst ({@link #burst}): rarely enough that the journal takes little more. */
    private static final int BURST_EVERY = 128;
    /** The round of each {@link #BURST_EVERY} that bursts: early, so a short warm-up gets one too. */
    private static final int FIRST_BURST = 4;
    /** Jobs per burst, and per batch GET of it: a batch puller's size (less where the batch limit is lower). */
    private static final int BURST_JOBS = 100;

    private static final String BODY =
            "warm-up of a freshly started gateway: the path of a job, push to finish, once over";

    private final int burstJobs;
    /** This start's own: nodes starting side by side cancel only their own warm-up jobs. */
    private final String bizKey = TOPIC + "-" + UUID.randomUUID().toString().substring(0, 8);

    WarmupTraffic(int maxBatchSize) {
        this.burstJobs = Math.min(BURST_JOBS, maxBatchSize);
    }

    int burstJobs() {
        return burstJobs;
    }

    /**
     * The path of two jobs: one due at once, taken by a waiting GET (this round's or another's) and finished; one due
     * in an hour, looked up and cancelled. The rounds vary what a user's calls vary (with and without a bizKey, the
     * legacy and the REST routes, batches, an empty poll): the JIT compiles only the branches it saw, and a branch
     * first seen after the port opened would throw compiled code away under the real load.
     */
    void round(LoopbackHttp http, long n, AtomicLong calls, AtomicLong bursts) throws IOException {
        boolean odd = (n & 1) == 1;
        push(http, 0);
        String later = push(http, 3_600_000);
        expect(http.get("/jobs/" + later), "lookup of " + later);
        expect(odd ? http.delete("/jobs/" + later) : http.get("/delete?jobId=" + later), "cancel of " + later);
        LoopbackHttp.Answer taken =
                expect(http.get("/get/" + TOPIC + (odd ? "?timeout=250" : "?ttr=5000&timeout=250")), "pull");
        calls.addAndGet(5);
        Matcher id = IDS.matcher(taken.body());
        if (id.find()) {
            expect(
                    odd
                            ? http.post("/jobs/" + id.group(1) + "/finish", null)
                            : http.get("/finish?jobId=" + id.group(1)),
                    "finish of " + id.group(1));
            calls.incrementAndGet();
        }
        if (n % 8 == 0) {
            String job = job(0);
            expect(http.post("/push/batch", "[" + job + "," + job + "," + job + "]"), "batch push");
            finishAll(http, expect(http.get("/get/" + TOPIC + "/batch?count=3&timeout=500"), "batch pull"));
            // mostly empty, but it may take a job another round pushed: finished like any other
            Matcher polled = IDS.matcher(
                    expect(http.get("/get/" + TOPIC + "?timeout=0"), "poll").body());
            if (polled.find()) {
                expect(http.get("/finish?jobId=" + polled.group(1)), "finish of " + polled.group(1));
            }
            expect(http.get("/jobs?bizKey=" + bizKey + "&topic=" + TOPIC + "&limit=10"), "lookup by bizKey");
            calls.addAndGet(5);
        }
        // early in each connector's part: a short warm-up gets one too
        if (n % BURST_EVERY == FIRST_BURST) {
            burst(http, calls);
            bursts.incrementAndGet();
        }
    }

    /**
     * {@value #BURST_JOBS} jobs due at once in one batch push, taken as many per batch GET and finished per batch: the
     * sizes a drain's loops and buffers see, whose code batches of 3 alone leave uncompiled.
     */
    private void burst(LoopbackHttp http, AtomicLong calls) throws IOException {
        String job = job(0);
        StringBuilder jobs = new StringBuilder("[").append(job);
        for (int i = 1; i < burstJobs; i++) {
            jobs.append(',').append(job);
        }
        expect(http.post("/push/batch", jobs.append(']').toString()), "burst push");
        calls.incrementAndGet();
        // other rounds' pulls may take some of them: a few GETs, then the clean-up takes what is left
        for (int pulls = 0; pulls < 3; pulls++) {
            if (!finishAll(
                    http,
                    expect(http.get("/get/" + TOPIC + "/batch?count=" + burstJobs + "&timeout=500"), "burst pull"))) {
                break;
            }
            calls.addAndGet(2);
        }
    }

    /** POST /finish/batch of the jobs in a batch pull's answer; false when it held none. */
    private static boolean finishAll(LoopbackHttp http, LoopbackHttp.Answer taken) throws IOException {
        Matcher id = IDS.matcher(taken.body());
        if (!id.find()) {
            return false;
        }
        StringBuilder ids = new StringBuilder("[");
        do {
            ids.append(ids.length() > 1 ? ",\"" : "\"").append(id.group(1)).append('"');
        } while (id.find());
        expect(http.post("/finish/batch", ids.append(']').toString()), "batch finish");
        return true;
    }

    private String job(long delayMs) {
        return "{\"topic\":\"" + TOPIC + "\",\"bizKey\":\"" + bizKey + "\",\"delay\":" + delayMs + ",\"body\":\"" + BODY
                + "\"}";
    }

    private String push(LoopbackHttp http, long delayMs) throws IOException {
        LoopbackHttp.Answer pushed = expect(http.post("/push", job(delayMs)), "push");
        Matcher id = ID.matcher(pushed.body());
        if (!id.find()) {
            throw new IllegalStateException("push answered no id: " + pushed.body());
        }
        return id.group(1);
    }

    private static LoopbackHttp.Answer expect(LoopbackHttp.Answer answer, String what) {
        if (answer.status() != 200) {
            throw new IllegalStateException("warm-up " + what + " answered " + answer.status() + " " + answer.body());
        }
        return answer;
    }

    /**
     * Cancels this start's warm-up jobs still waiting (by its bizKey), then takes and finishes the ones handed over,
     * until a cancel refuses none (none is ready or in flight any more) and no pull takes any: a few hundred ms, 10 s
     * at most. Returns how many the last cancel refused.
     */
    long cleanUp(int port) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        long left = -1;
        try (LoopbackHttp http = new LoopbackHttp(port, 30_000, 0)) {
            while (System.nanoTime() < deadline) {
                left = refused(expect(http.delete("/jobs?bizKey=" + bizKey + "&topic=" + TOPIC), "cancel by bizKey")
                        .body());
                boolean took = false;
                while (finishAll(
                        http, expect(http.get("/get/" + TOPIC + "/batch?count=100&timeout=100"), "batch pull"))) {
                    took = true;
                }
                if (left == 0 && !took) {
                    return 0;
                }
                pause();
            }
        } catch (IOException | RuntimeException e) {
            log.warn("Warm-up jobs in topic {} may be left: {}", TOPIC, e.toString());
        }
        log.warn(
                "Warm-up jobs in topic {} with bizKey {} left ready or in flight: {}",
                TOPIC,
                bizKey,
                left < 0 ? "unknown" : left);
        return left;
    }

    /** How many jobs a cancel-by-bizKey answer lists as refused, -1 when it has no such list. */
    static long refused(String cancelAnswer) {
        int from = cancelAnswer.indexOf("\"refused\":{");
        if (from < 0) {
            return -1;
        }
        int to = cancelAnswer.indexOf('}', from);
        String entries = cancelAnswer.substring(from + "\"refused\":{".length(), to < 0 ? cancelAnswer.length() : to);
        long count = 0;
        for (int at = entries.indexOf("\":\""); at >= 0; at = entries.indexOf("\":\"", at + 3)) {
            count++;
        }
        return count;
    }

    static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
