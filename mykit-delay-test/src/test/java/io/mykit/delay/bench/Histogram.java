package io.mykit.delay.bench;

import java.util.Arrays;
import java.util.List;

/**
 * Every recorded value, kept exactly: a bench records at most a few hundred thousand, so sorting them once gives exact
 * percentiles. Not thread-safe: each worker fills its own and the results are merged.
 */
final class Histogram {
    private long[] values = new long[1024];
    private int size;
    private boolean sorted = true;

    void record(long value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
        sorted = false;
    }

    void addAll(Histogram other) {
        for (int i = 0; i < other.size; i++) {
            record(other.values[i]);
        }
    }

    static Histogram merged(List<Histogram> parts) {
        Histogram all = new Histogram();
        parts.forEach(all::addAll);
        return all;
    }

    int count() {
        return size;
    }

    /** Nearest-rank percentile, {@code q} in 0..100; 0 when empty. */
    long percentile(double q) {
        if (size == 0) {
            return 0;
        }
        sort();
        int rank = (int) Math.ceil(q / 100.0 * size);
        return values[Math.min(size - 1, Math.max(0, rank - 1))];
    }

    long min() {
        return size == 0 ? 0 : percentile(0);
    }

    long max() {
        return size == 0 ? 0 : percentile(100);
    }

    /** Arithmetic mean; 0 when empty. */
    double mean() {
        double sum = 0;
        for (int i = 0; i < size; i++) {
            sum += values[i];
        }
        return size == 0 ? 0 : sum / size;
    }

    /** The median of a few repeated measurements (mean of the middle two when even). */
    static double median(List<Double> samples) {
        if (samples.isEmpty()) {
            return 0;
        }
        double[] s = samples.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int mid = s.length / 2;
        return s.length % 2 == 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
    }

    private void sort() {
        if (!sorted) {
            Arrays.sort(values, 0, size);
            sorted = true;
        }
    }
}
