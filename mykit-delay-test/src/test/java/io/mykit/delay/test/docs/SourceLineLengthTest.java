package io.mykit.delay.test.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The formatter wraps code at 120 columns but leaves long strings and comments alone; this catches those. */
class SourceLineLengthTest {
    private static final int MAX_COLUMNS = 120;

    @Test
    void noJavaLineIsWiderThanTheLimit() throws IOException {
        List<String> wide = new ArrayList<>();
        try (Stream<Path> files = Files.walk(DocPages.root())) {
            for (Path file : files.filter(SourceLineLengthTest::isSource).toList()) {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    if (lines.get(i).codePointCount(0, lines.get(i).length()) > MAX_COLUMNS) {
                        wide.add(DocPages.root().relativize(file) + ":" + (i + 1));
                    }
                }
            }
        }
        assertThat(wide).as("Java lines over %d columns", MAX_COLUMNS).isEmpty();
    }

    private static boolean isSource(Path path) {
        String text = path.toString();
        return text.endsWith(".java") && !text.contains("/target/") && !text.contains("/.git/");
    }
}
