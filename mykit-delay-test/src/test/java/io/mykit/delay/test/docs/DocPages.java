package io.mykit.delay.test.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The repository's README and docs/ pages as the tests that keep them honest read them. */
final class DocPages {
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern FENCE = Pattern.compile("^\\s*```");

    private DocPages() {}

    /** The repository root, seen from the test module (where surefire runs) or from the root itself. */
    static Path root() {
        for (Path candidate : List.of(Path.of(".."), Path.of("."))) {
            if (Files.isRegularFile(candidate.resolve("README.md")) && Files.isDirectory(candidate.resolve("docs"))) {
                return candidate.toAbsolutePath().normalize();
            }
        }
        throw new IllegalStateException(
                "no README.md and docs/ in .. or . of " + Path.of("").toAbsolutePath());
    }

    /** README.md and every page under docs/. */
    static List<Path> pages() {
        Path root = root();
        List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    static String text(Path page) {
        try {
            return Files.readString(page, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The page's lines outside fenced code blocks. */
    static List<String> prose(Path page) {
        List<String> lines = new ArrayList<>();
        boolean inFence = false;
        for (String line : text(page).split("\n", -1)) {
            if (FENCE.matcher(line).find()) {
                inFence = !inFence;
            } else if (!inFence) {
                lines.add(line);
            }
        }
        return lines;
    }

    /** The anchors a renderer in GitHub's manner gives the page's headings. */
    static Set<String> anchors(Path page) {
        Set<String> anchors = new LinkedHashSet<>();
        for (String line : prose(page)) {
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String base = anchor(heading.group(1));
                String candidate = base;
                for (int n = 1; !anchors.add(candidate); n++) {
                    candidate = base + "-" + n;
                }
            }
        }
        return anchors;
    }

    /** Lower case, markup and punctuation dropped (hyphens and underscores kept), spaces made hyphens. */
    static String anchor(String heading) {
        String plain =
                heading.replaceAll("`|\\*\\*|\\[([^]]*)]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
        StringBuilder out = new StringBuilder();
        plain.codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                out.appendCodePoint(c);
            } else if (c == ' ') {
                out.append('-');
            }
        });
        return out.toString();
    }
}
