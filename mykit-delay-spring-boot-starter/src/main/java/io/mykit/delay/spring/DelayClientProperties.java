package io.mykit.delay.spring;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The {@code mykit.delay.client.*} settings of a service that pushes to and receives from a gateway. */
@ConfigurationProperties(DelayClientProperties.PREFIX)
public class DelayClientProperties {
    public static final String PREFIX = "mykit.delay.client";

    static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

    /** Whether the client, the template and the listeners are set up at all. */
    private boolean enabled = true;

    /** The gateway's base URL, e.g. http://localhost:8080 (required). */
    private String url;

    /** A tenant's (or the admin's) token, sent as a Bearer token; unset for a gateway without tenants. */
    private String token;

    /** How long one try of an HTTP call may wait for its answer. */
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;

    /** Tries of a pushed job that sets none (0: the gateway's default). */
    private int defaultTries;

    /** Time to live past its due time of a pushed job that sets none (unset: no limit). */
    private Duration defaultTtl;

    /** Defaults of every @DelayListener method. */
    private final Listener listener = new Listener();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    public String getToken() {
        return token;
    }

    public void setToken(String token) {
        this.token = token;
    }

    public Duration getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    public int getDefaultTries() {
        return defaultTries;
    }

    public void setDefaultTries(int defaultTries) {
        this.defaultTries = defaultTries;
    }

    public Duration getDefaultTtl() {
        return defaultTtl;
    }

    public void setDefaultTtl(Duration defaultTtl) {
        this.defaultTtl = defaultTtl;
    }

    public Listener getListener() {
        return listener;
    }

    /** Checks what the client would refuse later, naming the key. */
    void validate() {
        if (url == null || url.isBlank()) {
            throw new IllegalStateException(PREFIX + ".url is required (the gateway, e.g. http://localhost:8080)");
        }
        if (requestTimeout == null || requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalStateException(PREFIX + ".request-timeout must be positive, was " + requestTimeout);
        }
        if (defaultTries < 0 || defaultTries > 1000) {
            throw new IllegalStateException(PREFIX + ".default-tries must be 0..1000, was " + defaultTries);
        }
        if (defaultTtl != null && defaultTtl.isNegative()) {
            throw new IllegalStateException(PREFIX + ".default-ttl must not be negative, was " + defaultTtl);
        }
        listener.validate();
    }

    /** Defaults of every @DelayListener method; the annotation's own values win. */
    public static class Listener {
        static final int DEFAULT_CONCURRENCY = 4;
        static final Duration DEFAULT_TTR = Duration.ofSeconds(30);
        static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);
        static final Duration DEFAULT_HEALTH_GRACE = Duration.ofSeconds(30);

        /** Handler threads of each listener. */
        private int concurrency = DEFAULT_CONCURRENCY;

        /** Jobs the gateway may hand a listener that are neither finished nor released (0: twice the concurrency). */
        private int credit;

        /** How long each received job stays reserved without a touch (at most the gateway's max-ttr). */
        private Duration ttr = DEFAULT_TTR;

        /** How long stopping the service waits for each listener's running handlers. */
        private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;

        /** How long a listener may go without a stream before the delayListeners health is DOWN. */
        private Duration healthGrace = DEFAULT_HEALTH_GRACE;

        public int getConcurrency() {
            return concurrency;
        }

        public void setConcurrency(int concurrency) {
            this.concurrency = concurrency;
        }

        public int getCredit() {
            return credit;
        }

        public void setCredit(int credit) {
            this.credit = credit;
        }

        public Duration getTtr() {
            return ttr;
        }

        public void setTtr(Duration ttr) {
            this.ttr = ttr;
        }

        public Duration getShutdownTimeout() {
            return shutdownTimeout;
        }

        public void setShutdownTimeout(Duration shutdownTimeout) {
            this.shutdownTimeout = shutdownTimeout;
        }

        public Duration getHealthGrace() {
            return healthGrace;
        }

        public void setHealthGrace(Duration healthGrace) {
            this.healthGrace = healthGrace;
        }

        void validate() {
            String at = PREFIX + ".listener.";
            if (concurrency < 1) {
                throw new IllegalStateException(at + "concurrency must be >= 1, was " + concurrency);
            }
            if (credit < 0) {
                throw new IllegalStateException(at + "credit must be >= 0, was " + credit);
            }
            requirePositive(at + "ttr", ttr);
            requirePositive(at + "health-grace", healthGrace);
            if (shutdownTimeout == null || shutdownTimeout.isNegative()) {
                throw new IllegalStateException(at + "shutdown-timeout must not be negative, was " + shutdownTimeout);
            }
        }

        private static void requirePositive(String key, Duration value) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalStateException(key + " must be positive, was " + value);
            }
        }
    }
}
