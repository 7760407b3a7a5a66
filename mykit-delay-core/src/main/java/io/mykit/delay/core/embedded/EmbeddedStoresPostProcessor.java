package io.mykit.delay.core.embedded;

import io.mykit.delay.core.compat.OriginalSettingsPostProcessor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.commons.logging.Log;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.context.event.SpringApplicationEvent;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;

/**
 * Gives {@code java -jar mykit-delay.jar} with no configuration real stores: a Redis child process and an H2 file
 * journal under the data directory, each only when the user configured none.
 */
public class EmbeddedStoresPostProcessor implements EnvironmentPostProcessor, Ordered {

    static final String ENABLED = "mykit.delay.embedded.enabled";
    static final String DATA_DIR = "mykit.delay.embedded.data-dir";
    static final String DEFAULT_DATA_DIR = "./data";
    static final String REDIS_HOST = "mykit.delay.redis.host";
    static final String REDIS_PORT = "mykit.delay.redis.port";
    static final String REDIS_PASSWORD = "mykit.delay.redis.password";
    static final String REDIS_CLUSTER_NODES = "mykit.delay.redis.cluster-nodes";
    static final String DATASOURCE_URL = "spring.datasource.url";
    static final String PROPERTY_SOURCE_NAME = "mykitDelayEmbeddedStores";

    /**
     * MySQL dialect with MySQL's lower-case names (no journal column is an H2 keyword, so no NON_KEYWORDS); every
     * commit written to the file at once (H2's default 500 ms write delay loses commits on kill -9); the datasource,
     * not H2's own shutdown hook, closes the database, so the journal's last batch at shutdown still has it.
     */
    static final String H2_OPTIONS = ";MODE=MySQL;DATABASE_TO_LOWER=TRUE;WRITE_DELAY=0;DB_CLOSE_ON_EXIT=FALSE";

    private static final String LEASE_BEAN_NAME = "mykitDelayEmbeddedRedis";
    private static final AtomicBoolean SHUTDOWN_HANDLER_ADDED = new AtomicBoolean();

    private final Log log;

    public EmbeddedStoresPostProcessor(DeferredLogFactory logFactory) {
        this.log = logFactory.getLog(EmbeddedStoresPostProcessor.class);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Binder binder = Binder.get(environment);
        if (!binder.bind(ENABLED, Boolean.class).orElse(true)) {
            return;
        }
        boolean needRedis = isBlank(binder, REDIS_HOST)
                && binder.bind(REDIS_CLUSTER_NODES, Bindable.listOf(String.class))
                        .map(List::isEmpty)
                        .orElse(true);
        boolean needJournal = isBlank(binder, DATASOURCE_URL);
        if (needJournal) {
            // a username or pool type without a URL still means a database was meant (the pool settings of the
            // gateway's own application.yml aside)
            List<String> stray = OriginalSettingsPostProcessor.namesUnder(environment, "spring.datasource.").stream()
                    .filter(name -> !name.startsWith("spring.datasource.hikari."))
                    .toList();
            if (!stray.isEmpty()) {
                throw new IllegalStateException(
                        String.join(", ", stray) + " set but " + DATASOURCE_URL + " is not: set " + DATASOURCE_URL
                                + " (the embedded journal starts only when no datasource setting is given)");
            }
        }
        if (!needRedis && !needJournal) {
            return;
        }
        if (needRedis != needJournal) {
            // a production node with one store set must not fall back to a private store under ./data for the other
            throw new IllegalStateException(halfConfigured(needRedis));
        }
        Path dataDir = Path.of(binder.bind(DATA_DIR, String.class).orElse(DEFAULT_DATA_DIR))
                .toAbsolutePath()
                .normalize();
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> started = new ArrayList<>();
        if (needRedis) {
            EmbeddedRedis.Lease redis = startRedis(dataDir.resolve("redis"));
            releaseWithApplication(application, redis);
            properties.put(REDIS_HOST, RedisProcess.HOST);
            properties.put(REDIS_PORT, redis.port());
            properties.put(REDIS_PASSWORD, redis.password());
            started.add("Redis " + RedisProcess.HOST + ":" + redis.port() + " (" + redis.executable() + ", AOF in "
                    + redis.dir() + ")");
        }
        if (needJournal) {
            String url = "jdbc:h2:file:" + dataDir.resolve("journal").resolve("mykit-delay") + H2_OPTIONS;
            properties.put(DATASOURCE_URL, url);
            properties.put("spring.datasource.username", "sa");
            properties.put("spring.datasource.password", "");
            started.add("journal H2 " + url);
        }
        // First: a port or username the user left in application.yml without a host or URL must not point the
        // gateway away from the stores started here.
        environment.getPropertySources().addFirst(new MapPropertySource(PROPERTY_SOURCE_NAME, properties));
        log.info("Embedded stores started: " + String.join("; ", started));
        log.warn("EMBEDDED STORES IN USE: Redis and the journal run inside this gateway with their data in " + dataDir
                + "; fine for a try-out, not for production (one node, no replica). For production set " + REDIS_HOST
                + " and " + DATASOURCE_URL + ", and " + ENABLED + "=false so a missing setting stops the start");
    }

    /** Whether the gateway runs on the embedded Redis this post-processor started. */
    public static boolean embeddedRedis(Environment environment) {
        return startedHere(environment, REDIS_HOST);
    }

    /** Whether the gateway journals into the embedded H2 database this post-processor set up. */
    public static boolean embeddedJournal(Environment environment) {
        return startedHere(environment, DATASOURCE_URL);
    }

    private static boolean startedHere(Environment environment, String key) {
        return environment instanceof ConfigurableEnvironment configurable
                && configurable.getPropertySources().get(PROPERTY_SOURCE_NAME) instanceof MapPropertySource source
                && source.containsProperty(key);
    }

    static String halfConfigured(boolean redisMissing) {
        String set = redisMissing ? DATASOURCE_URL : REDIS_HOST + " (or " + REDIS_CLUSTER_NODES + ")";
        String missing = redisMissing ? REDIS_HOST + " (or " + REDIS_CLUSTER_NODES + ")" : DATASOURCE_URL;
        return "mykit-delay stores half configured: " + set + " is set but " + missing + " is not. Set " + missing
                + " as well; the embedded stores start only when neither store is configured (" + ENABLED
                + "=false turns them off)";
    }

    @Override
    public int getOrder() {
        // After the config data (application.yml, command line) is in the environment.
        return Ordered.LOWEST_PRECEDENCE;
    }

    private static boolean isBlank(Binder binder, String name) {
        return binder.bind(name, String.class).map(String::isBlank).orElse(true);
    }

    private EmbeddedRedis.Lease startRedis(Path dir) {
        try {
            return EmbeddedRedis.acquire(dir, log);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException(
                    "Cannot start the embedded Redis in " + dir + " (set " + REDIS_HOST + " to use your own Redis): "
                            + e.getMessage(),
                    e);
        }
    }

    // Context close stops Redis after every bean is gone; Boot's shutdown handlers (a JVM hook run once the
    // contexts have closed) cover a context that is never closed.
    private static void releaseWithApplication(SpringApplication application, EmbeddedRedis.Lease lease) {
        application.addListeners(new LeaseReleaser(lease));
        if (SHUTDOWN_HANDLER_ADDED.compareAndSet(false, true)) {
            SpringApplication.getShutdownHandlers().add(EmbeddedRedis::stopAll);
        }
    }

    /** Releases the Redis lease when the application's beans are destroyed, or when it fails to start. */
    private static final class LeaseReleaser implements ApplicationListener<SpringApplicationEvent> {

        private final EmbeddedRedis.Lease lease;

        LeaseReleaser(EmbeddedRedis.Lease lease) {
            this.lease = lease;
        }

        @Override
        public void onApplicationEvent(SpringApplicationEvent event) {
            if (event instanceof ApplicationPreparedEvent prepared) {
                // Registered before any bean, so destroyed after all of them: the engine's last writes still land.
                ConfigurableListableBeanFactory beanFactory =
                        prepared.getApplicationContext().getBeanFactory();
                if (beanFactory instanceof DefaultSingletonBeanRegistry registry) {
                    registry.registerDisposableBean(LEASE_BEAN_NAME, lease::release);
                }
            } else if (event instanceof ApplicationFailedEvent) {
                lease.release();
            }
        }
    }
}
