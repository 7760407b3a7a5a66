package io.mykit.delay.config;

import static io.mykit.delay.config.Checks.check;
import static io.mykit.delay.config.Checks.positive;

import java.time.Duration;
import java.util.List;

/** {@code mykit.delay.recovery.*}: rebuilding Redis from the journal. */
public class RecoveryProperties {
    /** Restore Redis from the journal automatically when Redis lost its data (epoch key missing). */
    private boolean auto = true;
    /** How often the epoch key is checked. */
    private Duration checkInterval = Duration.ofSeconds(2);
    /** Journal rows read (and Redis adds pipelined) per restore page. */
    private int pageSize = 5_000;

    public boolean isAuto() {
        return auto;
    }

    public void setAuto(boolean auto) {
        this.auto = auto;
    }

    public Duration getCheckInterval() {
        return checkInterval;
    }

    public void setCheckInterval(Duration checkInterval) {
        this.checkInterval = checkInterval;
    }

    public int getPageSize() {
        return pageSize;
    }

    public void setPageSize(int pageSize) {
        this.pageSize = pageSize;
    }

    void validate(List<String> errors) {
        check(errors, positive(checkInterval), "mykit.delay.recovery.check-interval must be > 0");
        check(errors, pageSize >= 1 && pageSize <= 20_000, "mykit.delay.recovery.page-size must be 1..20000");
    }
}
