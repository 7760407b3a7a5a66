package io.mykit.delay.config;

import static io.mykit.delay.config.Checks.check;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** {@code mykit.delay.http.*}: how the HTTP boundary answers. */
public class HttpProperties {
    private static final Pattern HOST_NAME = Pattern.compile("(\\*\\.)?[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?\\.?");

    /**
     * For clients written against the original mykit-delay: every answer is HTTP 200 and the real status is in the
     * envelope's {@code code} ({@code success:false} for errors).
     */
    private boolean legacyStatus = false;
    /**
     * Answer POST /push, GET /get/{topic} and GET /finish, plainly spelled, in a servlet filter rather than through
     * Spring MVC's dispatch (same answers, less CPU per call); false sends them through the controllers too.
     */
    private boolean directRoutes = true;
    /**
     * Before the port opens, at most this long of the gateway's own jobs in topic {@code mykit-delay-warmup}, pushed,
     * pulled, finished and cancelled through a loopback port of the same web server, so the first clients meet compiled
     * code; it ends sooner once the JIT has settled. Off by default (0): it delays every start and sends its own jobs
     * through the production Redis and journal.
     */
    private Duration warmup;
    /**
     * Names clients use for the gateway in the Host header besides localhost, IP addresses and this machine's own
     * names; {@code *.example.internal} allows every name under it. A browser's call without a token that names the
     * gateway otherwise is refused: the name may be a web page's, resolved to the gateway (DNS rebinding).
     */
    private List<String> allowedHosts = new ArrayList<>();
    /** Refuse every call without a token naming an unlisted host, not only a browser's: closes rebinding for good. */
    private boolean allowedHostsOnly = false;

    public List<String> getAllowedHosts() {
        return allowedHosts;
    }

    public void setAllowedHosts(List<String> allowedHosts) {
        this.allowedHosts = allowedHosts;
    }

    public boolean isAllowedHostsOnly() {
        return allowedHostsOnly;
    }

    public void setAllowedHostsOnly(boolean allowedHostsOnly) {
        this.allowedHostsOnly = allowedHostsOnly;
    }

    public Duration getWarmup() {
        return warmup;
    }

    public void setWarmup(Duration warmup) {
        this.warmup = warmup;
    }

    public boolean isDirectRoutes() {
        return directRoutes;
    }

    public void setDirectRoutes(boolean directRoutes) {
        this.directRoutes = directRoutes;
    }

    public boolean isLegacyStatus() {
        return legacyStatus;
    }

    public void setLegacyStatus(boolean legacyStatus) {
        this.legacyStatus = legacyStatus;
    }

    void validate(List<String> errors) {
        check(
                errors,
                warmup == null || !warmup.isNegative() && warmup.compareTo(Duration.ofMinutes(5)) <= 0,
                "mykit.delay.http.warmup must be 0..5m");
        for (String host : allowedHosts) {
            check(
                    errors,
                    host != null && HOST_NAME.matcher(host.trim()).matches(),
                    "mykit.delay.http.allowed-hosts: '" + host + "' is no host name (no port, no scheme; "
                            + "*.suffix for the names under one)");
        }
    }
}
