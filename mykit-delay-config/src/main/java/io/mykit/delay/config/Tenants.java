package io.mykit.delay.config;

import io.mykit.delay.common.tenant.Tenant;
import io.mykit.delay.common.tenant.TenantDirectory;
import io.mykit.delay.common.tenant.TopicPattern;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Checks a set of tenants (from the configuration, the tenants file or both) and turns it into a directory. */
public final class Tenants {
    private static final String PREFIX = "mykit.delay.tenants.";

    private Tenants() {}

    /** The configuration's tenants with the file's added; a tenant the file names too is the file's. */
    public static Map<String, TenantProperties> merged(
            Map<String, TenantProperties> configured, Map<String, TenantProperties> fromFile) {
        Map<String, TenantProperties> all = new LinkedHashMap<>(configured);
        all.putAll(fromFile);
        return all;
    }

    /** What is wrong with this set of tenants, one message per problem naming the key; empty when nothing is. */
    public static List<String> problems(Map<String, TenantProperties> tenants, String adminToken) {
        List<String> errors = new ArrayList<>();
        Map<String, String> owners = new HashMap<>();
        tenants.forEach((name, tenant) -> {
            String key = PREFIX + name;
            if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
                errors.add(key + ": a tenant name is 1..64 of A-Z a-z 0-9 . _ -");
            }
            try {
                if (Tenant.patterns(tenant.getTopics()).isEmpty()) {
                    errors.add(key + ".topics: at least one topic pattern is required");
                }
            } catch (IllegalArgumentException e) {
                errors.add(key + ".topics: " + e.getMessage());
            }
            List<String> tokens = tenant.allTokens();
            if (tokens.isEmpty() && !Tenant.DEFAULT.equals(name)) {
                errors.add(key + ".tokens: a token is required (only the tenant '" + Tenant.DEFAULT
                        + "' may take calls without one)");
            }
            for (String token : tokens) {
                if (adminToken != null && token.equals(adminToken.trim())) {
                    errors.add(key + ".tokens: a tenant's token must not be the admin token");
                }
                String other = owners.putIfAbsent(token, name);
                if (other != null && !other.equals(name)) {
                    errors.add(key + ".tokens: a token of tenant '" + other + "' too");
                }
            }
            if (!(tenant.getPushRate() >= 0) || Double.isInfinite(tenant.getPushRate())) {
                errors.add(key + ".push-rate must be >= 0 (0 = no limit), was " + tenant.getPushRate());
            }
            if (tenant.getMaxPending() < 0) {
                errors.add(key + ".max-pending must be >= 0 (0 = no limit), was " + tenant.getMaxPending());
            }
            if (tenant.getMaxPolls() < 0) {
                errors.add(key + ".max-polls must be >= 0 (0 = no limit), was " + tenant.getMaxPolls());
            }
            if (tenant.getMaxStreams() < 0) {
                errors.add(
                        key + ".max-streams must be >= 0 (0 = a share of the node's), was " + tenant.getMaxStreams());
            }
        });
        errors.addAll(overlaps(tenants));
        return errors;
    }

    /**
     * One message per two tenants whose patterns match a topic in common, naming both and the patterns: each would read
     * and cancel the other's jobs of that topic.
     */
    private static List<String> overlaps(Map<String, TenantProperties> tenants) {
        Map<String, List<TopicPattern>> patterns = new TreeMap<>();
        tenants.forEach((name, tenant) -> {
            try {
                patterns.put(name, Tenant.patterns(tenant.getTopics()));
            } catch (IllegalArgumentException e) {
                patterns.put(name, List.of()); // reported above
            }
        });
        List<String> names = new ArrayList<>(patterns.keySet());
        List<String> errors = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            for (int j = i + 1; j < names.size(); j++) {
                String shared =
                        shared(names.get(i), patterns.get(names.get(i)), names.get(j), patterns.get(names.get(j)));
                if (shared != null) {
                    errors.add(PREFIX + names.get(i) + ".topics: " + shared);
                }
            }
        }
        return errors;
    }

    /** The first two patterns of tenants a and b that match a topic in common, described; null when none do. */
    private static String shared(String a, List<TopicPattern> ofA, String b, List<TopicPattern> ofB) {
        for (TopicPattern p : ofA) {
            for (TopicPattern q : ofB) {
                if (p.overlaps(q)) {
                    return "pattern '" + p + "' of tenant '" + a + "' and pattern '" + q + "' of tenant '" + b
                            + "' match the same topics; a topic belongs to one tenant only";
                }
            }
        }
        return null;
    }

    /** The directory of a set of tenants {@link #problems} found nothing wrong with. */
    public static TenantDirectory directory(Map<String, TenantProperties> tenants, String adminToken) {
        List<Tenant> list = new ArrayList<>();
        tenants.forEach((name, tenant) -> list.add(new Tenant(
                name,
                tenant.allTokens(),
                Tenant.patterns(tenant.getTopics()),
                new Tenant.Limits(
                        tenant.getPushRate(), tenant.getMaxPending(), tenant.getMaxPolls(), tenant.getMaxStreams()))));
        return new TenantDirectory(list, adminToken);
    }
}
