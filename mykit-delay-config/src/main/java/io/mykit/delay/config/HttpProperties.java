package io.mykit.delay.config;

import static io.mykit.delay.config.Checks.check;
import static io.mykit.delay.config.Checks.positive;

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
     * Longest a request body may take to arrive, from its first read; beyond it the request is answered 408 and its
     * connection closed. Each read waits at most server.tomcat.connection-timeout on top.
     */
    private Duration bodyReadTimeout = Duration.ofSeconds(10);
    /** Most bytes of request bodies held at once over all requests; 0 takes a sixteenth of the heap. */
    private long maxBodyBytesInFlight = 0;
    /** Most request threads reading a body at once; 0 takes half of server.tomcat.threads.max. */
    private int maxBodyReaders = 0;

    public Duration getBodyReadTimeout() {
        return bodyReadTimeout;
    }

    public void setBodyReadTimeout(Duration bodyReadTimeout) {
        this.bodyReadTimeout = bodyReadTimeout;
    }

    public long getMaxBodyBytesInFlight() {
        return maxBodyBytesInFlight;
    }

    public void setMaxBodyBytesInFlight(long maxBodyBytesInFlight) {
        this.maxBodyBytesInFlight = maxBodyBytesInFlight;
    }

    public int getMaxBodyReaders() {
        return maxBodyReaders;
    }

    public void setMaxBodyReaders(int maxBodyReaders) {
        this.maxBodyReaders = maxBodyReaders;
    }

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
        check(errors, positive(bodyReadTimeout), "mykit.delay.http.body-read-timeout must be > 0");
        check(errors, maxBodyBytesInFlight >= 0, "mykit.delay.http.max-body-bytes-in-flight must be >= 0");
        check(errors, maxBodyReaders >= 0, "mykit.delay.http.max-body-readers must be >= 0");
        for (String host : allowedHosts) {
            check(
                    errors,
                    host != null && HOST_NAME.matcher(host.trim()).matches(),
                    "mykit.delay.http.allowed-hosts: '" + host + "' is no host name (no port, no scheme; "
                            + "*.suffix for the names under one)");
        }
    }
}
