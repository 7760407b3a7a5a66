package io.mykit.delay.test.operator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One read of /actuator/prometheus, parsed into series: name, labels, value. */
final class Scrape {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    record Series(String name, Map<String, String> labels, double value) {}

    private final String text;
    private final List<Series> series;

    private Scrape(String text, List<Series> series) {
        this.text = text;
        this.series = series;
    }

    /** Reads the gateway's Prometheus page; fails unless it answers 200. */
    static Scrape of(String baseUrl) {
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create(baseUrl + "/actuator/prometheus"))
                            .timeout(Duration.ofSeconds(30))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new AssertionError(
                        "/actuator/prometheus answered " + response.statusCode() + ": " + response.body());
            }
            return parse(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static Scrape parse(String text) {
        List<Series> all = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            String key = line.substring(0, space);
            double value = Double.parseDouble(line.substring(space + 1));
            int brace = key.indexOf('{');
            Map<String, String> labels = new LinkedHashMap<>();
            String name = brace < 0 ? key : key.substring(0, brace);
            if (brace >= 0) {
                Matcher m = LABEL.matcher(key.substring(brace));
                while (m.find()) {
                    labels.put(m.group(1), m.group(2));
                }
            }
            all.add(new Series(name, labels, value));
        }
        return new Scrape(text, all);
    }

    /** Series of this name whose labels include all of {@code labels} (key, value, key, value...). */
    List<Series> find(String name, String... labels) {
        List<Series> found = new ArrayList<>();
        for (Series s : series) {
            if (!s.name().equals(name)) {
                continue;
            }
            boolean match = true;
            for (int i = 0; i < labels.length; i += 2) {
                match &= labels[i + 1].equals(s.labels().get(labels[i]));
            }
            if (match) {
                found.add(s);
            }
        }
        return found;
    }

    /** Sum of the matching series; 0 when none matches. */
    double sum(String name, String... labels) {
        return find(name, labels).stream().mapToDouble(Series::value).sum();
    }

    boolean has(String name) {
        return series.stream().anyMatch(s -> s.name().equals(name));
    }

    String text() {
        return text;
    }
}
