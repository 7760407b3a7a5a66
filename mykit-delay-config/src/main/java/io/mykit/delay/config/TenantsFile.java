package io.mykit.delay.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code mykit.delay.tenants-file}: a .properties file with the configuration's keys,
 * {@code mykit.delay.tenants.<name>.tokens} (comma-separated, or {@code tokens[0]}, {@code tokens[1]}), {@code .token},
 * {@code .topics}, {@code .push-rate}, {@code .max-pending}, {@code .max-polls}. Any other key is an error, so a typo
 * never leaves a tenant without its limit.
 */
public final class TenantsFile {
    private static final Pattern KEY = Pattern.compile(
            "mykit\\.delay\\.tenants\\.([^.\\[\\]]+)\\.(tokens|tokens\\[(\\d+)]|token|topics|push-rate|max-pending"
                    + "|max-polls)");

    private TenantsFile() {}

    /** The tenants the file defines; IllegalArgumentException names what is wrong with it. */
    public static Map<String, TenantProperties> read(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(in);
        }
        Map<String, TenantProperties> tenants = new LinkedHashMap<>();
        Map<String, TreeMap<Integer, String>> indexedTokens = new LinkedHashMap<>();
        List<String> errors = new ArrayList<>();
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            String value = properties.getProperty(key).trim();
            Matcher m = KEY.matcher(key);
            if (!m.matches()) {
                errors.add(file + ": unknown key " + key);
                continue;
            }
            String name = m.group(1);
            TenantProperties tenant = tenants.computeIfAbsent(name, n -> new TenantProperties());
            try {
                switch (m.group(2)) {
                    case "tokens" -> tenant.setTokens(new ArrayList<>(List.of(value.split("\\s*,\\s*"))));
                    case "token" -> tenant.setToken(value);
                    case "topics" -> tenant.setTopics(value);
                    case "push-rate" -> tenant.setPushRate(Double.parseDouble(value));
                    case "max-pending" -> tenant.setMaxPending(Long.parseLong(value));
                    case "max-polls" -> tenant.setMaxPolls(Integer.parseInt(value));
                    default ->
                        indexedTokens
                                .computeIfAbsent(name, n -> new TreeMap<>())
                                .put(Integer.parseInt(m.group(3)), value);
                }
            } catch (NumberFormatException e) {
                errors.add(file + ": " + key + " is not a number");
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
}
