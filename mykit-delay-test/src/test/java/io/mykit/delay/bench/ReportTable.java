package io.mykit.delay.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** A plain-text table: columns as wide as their widest cell, a rule under the header. */
final class ReportTable {
    private final String[] header;
    private final List<String[]> rows = new ArrayList<>();

    ReportTable(String... header) {
        this.header = header;
    }

    void row(String... cells) {
        if (cells.length != header.length) {
            throw new IllegalArgumentException("expected " + header.length + " cells, got " + cells.length);
        }
        rows.add(cells);
    }

    String render() {
        int[] width = Arrays.stream(header).mapToInt(String::length).toArray();
        for (String[] row : rows) {
            for (int c = 0; c < row.length; c++) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, header, width);
        String[] rule = new String[header.length];
        for (int c = 0; c < rule.length; c++) {
            rule[c] = "-".repeat(width[c]);
        }
        line(out, rule, width);
        rows.forEach(row -> line(out, row, width));
        return out.toString();
    }

    private static void line(StringBuilder out, String[] cells, int[] width) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < cells.length; c++) {
            line.append(c == 0 ? "" : "  ").append(cells[c]).append(" ".repeat(width[c] - cells[c].length()));
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }

    /** 12345.6 -> "12,346". */
    static String count(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    /** Microseconds as milliseconds with one decimal. */
    static String micros(long us) {
        return String.format(Locale.ROOT, "%.1f", us / 1000.0);
    }

    static String verdict(boolean met) {
        return met ? "MET" : "MISSED";
    }
}
