package io.mykit.delay.test.compat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The original mykit-delay's files as test fixtures (test resources under original/, mirrors of ../shared/original).
 */
final class OriginalFixtures {
    static final List<String> FILES = List.of("mykit_delay.sql", "application.yml", "starter.properties");

    private OriginalFixtures() {}

    static String text(String file) {
        try (InputStream in = OriginalFixtures.class.getResourceAsStream("/original/" + file)) {
            if (in == null) {
                throw new IllegalStateException("test resource original/" + file + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read original/" + file, e);
        }
    }

    /** ../shared/original seen from the module or the repository root, where this checkout has one beside it. */
    static Optional<Path> sharedCopy(String file) {
        for (Path root : List.of(Path.of("..", "..", "shared", "original"), Path.of("..", "shared", "original"))) {
            Path candidate = root.resolve(file);
            if (Files.isRegularFile(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** Runs the original's schema script statement by statement, as a MySQL client would. */
    static void createOriginalTables(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (String sql : statements(text("mykit_delay.sql"))) {
                statement.execute(sql);
            }
        }
    }

    private static List<String> statements(String script) {
        StringBuilder current = new StringBuilder();
        List<String> statements = new ArrayList<>();
        boolean inBlockComment = false;
        for (String line : script.split("\n")) {
            String trimmed = line.trim();
            if (inBlockComment) {
                inBlockComment = !trimmed.endsWith("*/");
                continue;
            }
            if (trimmed.startsWith("/*")) {
                inBlockComment = !trimmed.endsWith("*/");
                continue;
            }
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                String sql = current.toString().trim();
                statements.add(sql.substring(0, sql.length() - 1));
                current.setLength(0);
            }
        }
        return statements;
    }
}
