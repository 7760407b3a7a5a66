package io.mykit.delay.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code mykit.delay.tenants-file}: a .properties file with the configuration's keys,
 * {@code mykit.delay.tenants.<name>.tokens} (comma-separated, or {@code tokens[0]}, {@code tokens[1]}), {@code .token},
 * {@code .topics}, {@code .push-rate}, {@code .max-pending}, {@code .max-polls}, {@code .max-streams}. Any other key is
 * an error, so a typo never leaves a tenant without its limit. Only a regular file of at most {@link #MAX_BYTES} is
 * read, within {@link #READ_TIMEOUT}. An error names the line and the key, never a value nor a line that is not a key:
 * either may be a token.
 */
public final class TenantsFile {
    /** The largest tenants file read: far above any real one, and a bound on what one read holds in memory. */
    public static final int MAX_BYTES = 1 << 20;

    /** How long one read may take (a stalled network file system): the watch must not stop for good on one read. */
    public static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

    private static final Pattern KEY = Pattern.compile(
            "mykit\\.delay\\.tenants\\.([^.\\[\\]]+)\\.(tokens|tokens\\[(\\d+)]|token|topics|push-rate|max-pending"
                    + "|max-polls|max-streams)");

    /** A key that may be shown in an error: one of the gateway's, spelt with key characters only. */
    private static final Pattern SHOWABLE_KEY = Pattern.compile("mykit\\.delay\\.[A-Za-z0-9._\\[\\]-]{1,200}");

    private TenantsFile() {}

    /** One key of the file, with the line it starts on. */
    private record Entry(int line, String key, String value) {}

    /** The tenants the file defines; IllegalArgumentException names what is wrong with it (lines and keys only). */
    public static Map<String, TenantProperties> read(Path file) throws IOException {
        List<String> errors = new ArrayList<>();
        Map<String, Entry> entries = entries(text(file), file, errors);
        Map<String, TenantProperties> tenants = new LinkedHashMap<>();
        Map<String, TreeMap<Integer, String>> indexedTokens = new LinkedHashMap<>();
        for (Entry entry : entries.values()) {
            String where = file + ": line " + entry.line() + ": ";
            Matcher m = KEY.matcher(entry.key());
            if (!m.matches()) {
                errors.add(where + describeUnknown(entry.key()));
                continue;
            }
            String name = m.group(1);
            String value = entry.value().trim();
            TenantProperties tenant = tenants.computeIfAbsent(name, n -> new TenantProperties());
            try {
                switch (m.group(2)) {
                    case "tokens" -> tenant.setTokens(new ArrayList<>(List.of(value.split("\\s*,\\s*"))));
                    case "token" -> tenant.setToken(value);
                    case "topics" -> tenant.setTopics(value);
                    case "push-rate" -> tenant.setPushRate(Double.parseDouble(value));
                    case "max-pending" -> tenant.setMaxPending(Long.parseLong(value));
                    case "max-polls" -> tenant.setMaxPolls(Integer.parseInt(value));
                    case "max-streams" -> tenant.setMaxStreams(Integer.parseInt(value));
                    default ->
                        indexedTokens
                                .computeIfAbsent(name, n -> new TreeMap<>())
                                .put(Integer.parseInt(m.group(3)), value);
                }
            } catch (NumberFormatException e) {
                errors.add(where + entry.key() + " is not a number");
            }
        }
        indexedTokens.forEach((name, tokens) -> {
            List<String> all = new ArrayList<>(tenants.get(name).getTokens());
            all.addAll(tokens.values());
            tenants.get(name).setTokens(all);
        });
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", errors));
        }
        return tenants;
    }

    private static String describeUnknown(String key) {
        if (SHOWABLE_KEY.matcher(key).matches()) {
            return "unknown key " + key;
        }
        // most likely the rest of a wrapped line, which may be a token
        return "not a key of the tenants file (its text is not shown: it may hold a secret)";
    }

    /**
     * The file's keys in order, each with the line it starts on, read as {@link Properties#load} reads them (escapes,
     * continuation lines, comments); a key given twice keeps its last value.
     */
    private static Map<String, Entry> entries(String text, Path file, List<String> errors) {
        Map<String, Entry> entries = new LinkedHashMap<>();
        String[] lines = text.split("\r\n|\r|\n", -1);
        StringBuilder logical = new StringBuilder();
        int start = 0;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (logical.isEmpty()) {
                String stripped = line.stripLeading();
                if (stripped.isEmpty() || stripped.startsWith("#") || stripped.startsWith("!")) {
                    continue;
                }
                start = i + 1;
            }
            logical.append(line).append('\n');
            if (endsContinued(line) && i + 1 < lines.length) {
                continue;
            }
            Properties one = new Properties();
            try {
                one.load(new StringReader(logical.toString()));
                for (String key : one.stringPropertyNames()) {
                    entries.remove(key);
                    entries.put(key, new Entry(start, key, one.getProperty(key)));
                }
            } catch (IOException | IllegalArgumentException e) {
                errors.add(file + ": line " + start + ": not a valid line (a malformed \\u escape)");
            }
            logical.setLength(0);
        }
        return entries;
    }

    /** Whether a line ends in an odd number of backslashes: the next line continues it. */
    private static boolean endsContinued(String line) {
        int slashes = 0;
        for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
            slashes++;
        }
        return slashes % 2 == 1;
    }

    /** The file's text: a regular file (not a FIFO, device or directory) of at most MAX_BYTES, read in time. */
    private static String text(Path file) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        if (!attributes.isRegularFile()) {
            throw new IOException(file + " is not a regular file");
        }
        if (attributes.size() > MAX_BYTES) {
            throw new IOException(file + " is larger than " + MAX_BYTES + " bytes");
        }
        FutureTask<byte[]> read = new FutureTask<>(() -> bytes(file));
        Thread reader = new Thread(read, "tenants-file-read");
        reader.setDaemon(true);
        reader.start();
        byte[] bytes;
        try {
            bytes = read.get(READ_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            reader.interrupt();
            throw new IOException(file + " was not read within " + READ_TIMEOUT.toSeconds() + " s");
        } catch (InterruptedException e) {
            reader.interrupt();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading " + file);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
        return StandardCharsets.UTF_8
                .newDecoder()
                .decode(ByteBuffer.wrap(bytes))
                .toString();
    }

    private static byte[] bytes(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                throw new IOException(file + " is larger than " + MAX_BYTES + " bytes");
            }
            return bytes;
        }
    }
}
