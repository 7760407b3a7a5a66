package io.mykit.delay.config;

import io.mykit.delay.common.tenant.Tenant;
import io.mykit.delay.common.tenant.TenantDirectory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
        });
        return errors;
    }

    /** The directory of a set of tenants {@link #problems} found nothing wrong with. */
    public static TenantDirectory directory(Map<String, TenantProperties> tenants, String adminToken) {
        List<Tenant> list = new ArrayList<>();
        tenants.forEach((name, tenant) -> list.add(new Tenant(
                name,
                tenant.allTokens(),
                Tenant.patterns(tenant.getTopics()),
                new Tenant.Limits(tenant.getPushRate(), tenant.getMaxPending(), tenant.getMaxPolls()))));
        return new TenantDirectory(list, adminToken);
    }
}
