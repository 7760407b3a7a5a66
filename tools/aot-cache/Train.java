import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The AOT-cache training load: drives a running gateway through the roads users take (single and batch push, pull,
 * finish, lookup, cancel) so the JVM records which classes load and which methods run hot. Run with the JDK's
 * source launcher: {@code java Train.java <base url> <rounds>}.
 */
public class Train {
    private static final String TOPIC = "mykit-delay-aot-training";
    private static final int THREADS = 4;
    private static final Pattern ID = Pattern.compile("\"(?:data|id)\"\\s*:\\s*\"([^\"]+)\"");
    private static final String BODY = "x".repeat(100);

    public static void main(String[] args) throws Exception {
        String base = args.length > 0 ? args[0] : "http://127.0.0.1:8080";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        AtomicInteger next = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        long started = System.nanoTime();
        for (int t = 0; t < THREADS; t++) {
            Thread thread = new Thread(() -> {
                for (int round = next.getAndIncrement(); round < rounds; round = next.getAndIncrement()) {
                    try {
                        oneRound(http, base, round);
                    } catch (Exception e) {
                        // a training load only shapes the cache: count failures, say so at the end, go on
                        failures.incrementAndGet();
                    }
                }
            }, "train-" + t);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        System.out.printf("training load: %d rounds in %.1f s, %d failed%n", rounds,
                (System.nanoTime() - started) / 1e9, failures.get());
        if (failures.get() > rounds / 10) {
            System.exit(1);
        }
    }

    private static void oneRound(HttpClient http, String base, int round) throws Exception {
        String pushed = send(http, post(base + "/push",
                "{\"topic\":\"" + TOPIC + "\",\"delay\":0,\"body\":\"" + BODY + "\"}"));
        String pulled = send(http, get(base + "/get/" + TOPIC + "?ttr=30000&timeout=1000"));
        String id = idOf(pulled);
        if (id != null) {
            send(http, get(base + "/finish?jobId=" + id));
        }
        if (round % 10 == 0) {
            String later = idOf(send(http, post(base + "/push",
                    "{\"topic\":\"" + TOPIC + "\",\"delay\":600000,"
                            + "\"bizKey\":\"b" + round + "\",\"body\":\"" + BODY + "\"}")));
            if (later != null) {
                send(http, get(base + "/jobs/" + later));
                send(http, HttpRequest.newBuilder(URI.create(base + "/jobs/" + later)).DELETE().build());
            }
        }
        if (round % 50 == 0) {
            StringBuilder batch = new StringBuilder("[");
            for (int i = 0; i < 20; i++) {
                batch.append(i == 0 ? "" : ",").append("{\"topic\":\"").append(TOPIC)
                        .append("\",\"delay\":0,\"body\":\"")
                        .append(BODY).append("\"}");
            }
            send(http, post(base + "/push/batch", batch.append(']').toString()));
            String many = send(http, get(base + "/get/" + TOPIC + "/batch?count=20&ttr=30000&timeout=1000"));
            List<String> ids = new ArrayList<>();
            Matcher m = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"").matcher(many);
            while (m.find()) {
                ids.add("\"" + m.group(1) + "\"");
            }
            send(http, post(base + "/finish/batch", "[" + String.join(",", ids) + "]"));
        }
        if (pushed == null) {
            throw new IllegalStateException("push answered nothing");
        }
    }

    private static String idOf(String answer) {
        Matcher m = ID.matcher(answer == null ? "" : answer);
        return m.find() ? m.group(1) : null;
    }

    private static HttpRequest get(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build();
    }

    private static HttpRequest post(String url, String json) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build();
    }

    private static String send(HttpClient http, HttpRequest request) throws Exception {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 500) {
            throw new IllegalStateException(request.uri() + " answered " + response.statusCode());
        }
        return response.body();
    }
}
