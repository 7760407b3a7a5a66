package io.mykit.delay.core.tenants;

import io.mykit.delay.common.tenant.LiveTenants;
import io.mykit.delay.common.tenant.TenantDirectory;
import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.config.TenantProperties;
import io.mykit.delay.config.Tenants;
import io.mykit.delay.config.TenantsFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the tenants file again when its modification time or size changes, and puts the new set in force: a token taken
 * out stops working at the next pass, without a restart. A file that cannot be read or has a bad key keeps the last
 * good set in force and logs an error on each change until it is fixed.
 */
public final class TenantsFileWatch implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(TenantsFileWatch.class);

    private final Path file;
    private final DelayProperties properties;
    private final Map<String, TenantProperties> configured;
    private final String adminToken;
    private final LiveTenants live;
    private FileTime lastModified;
    private long lastSize = -1;

    /** The configuration's own tenants are those the file's are added to; its routes are checked against both. */
    public TenantsFileWatch(DelayProperties properties, LiveTenants live) {
        this.file = properties.getTenantsFile();
        this.properties = properties;
        this.configured = properties.getTenants();
        this.adminToken = properties.getAdmin().getToken();
        this.live = live;
    }

    /** One pass: a changed file is read; every failure is logged and the pass ends (the loop goes on). */
    @Override
    public void run() {
        try {
            FileTime modified = Files.getLastModifiedTime(file);
            long size = Files.size(file);
            if (modified.equals(lastModified) && size == lastSize) {
                return;
            }
            lastModified = modified;
            lastSize = size;
            reload();
        } catch (Throwable e) {
            log.error("tenants file {} cannot be read, the tenants in force stay: {}", file, e.toString());
        }
    }

    /** Reads the file now; the first read at start-up is this one too. */
    public void reload() throws java.io.IOException {
        Map<String, TenantProperties> all;
        try {
            all = Tenants.merged(configured, TenantsFile.read(file));
        } catch (IllegalArgumentException e) {
            log.error("tenants file {} is not valid, the tenants in force stay: {}", file, e.getMessage());
            return;
        }
        List<String> problems = Tenants.problems(all, adminToken);
        if (!problems.isEmpty()) {
            log.error("tenants file {} is not valid, the tenants in force stay: {}", file, String.join("; ", problems));
            return;
        }
        if (all.isEmpty() && live.directory().enabled()) {
            // an emptied file would open every topic to every caller: tenants stay on until a restart says otherwise
            log.error("tenants file {} names no tenant, the tenants in force stay", file);
            return;
        }
        TenantDirectory next = Tenants.directory(all, adminToken);
        List<String> crossing = TenantRoutes.problems(properties, next);
        if (!crossing.isEmpty()) {
            log.error("tenants file {} is not taken, the tenants in force stay: {}", file, String.join("; ", crossing));
            return;
        }
        live.replace(next);
        log.info("tenants file {} read: tenants {}", file, all.keySet());
    }
}
