package io.mykit.delay.bench;

import io.mykit.delay.MykitDelayApplication;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.queue.dispatch.pull.PullTarget;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.store.StoreCounts;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * One gateway in this JVM on a random port, against the bench's Redis and MariaDB, with a key prefix of its own. Each
 * scenario gets a fresh one on freshly truncated journal tables, so scenarios cannot disturb each other.
 */
final class BenchGateway implements AutoCloseable {
    private static final String JDBC_OPTIONS = "useSSL=false&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true"
            + "&cachePrepStmts=true&prepStmtCacheSize=256&prepStmtCacheSqlLimit=1000000";
    private static final List<String> JOURNAL_TABLES = List.of("mykit_delay_queue_job", "mykit_delay_queue_job_log");

    private final BenchSettings settings;
    private final ConfigurableApplicationContext context;
    private final String keyPrefix;
    private final int port;

    private BenchGateway(BenchSettings settings, ConfigurableApplicationContext context, String keyPrefix) {
        this.settings = settings;
        this.context = context;
        this.keyPrefix = keyPrefix;
        this.port = ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    /**
     * Creates the bench database if needed, empties its journal tables and starts a gateway on it; {@code properties}
     * ({@code key=value}, e.g. a broker's address) come on top of the bench's own.
     */
    static BenchGateway start(BenchSettings settings, String... properties) throws SQLException {
        resetDatabase(settings);
        String prefix = newKeyPrefix();
        // command-line arguments, not default properties: application.yml's server.port=8080 would win over those
        List<String> args = arguments(settings, prefix, properties);
        if (System.getProperty("mykit.delay.http.warmup") == null) {
            // the in-process scenarios measure a gateway as the earlier sessions did; the lateness ones warm it by load
            args.add("--mykit.delay.http.warmup=0");
        }
        ConfigurableApplicationContext context =
                new SpringApplicationBuilder(MykitDelayApplication.class).run(args.toArray(String[]::new));
        return new BenchGateway(settings, context, prefix);
    }

    /** A key prefix no other gateway uses, so that closing can remove exactly what this one wrote. */
    static String newKeyPrefix() {
        return "bench-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /**
     * The gateway's command line for the bench: a random port, WARN logs, the bench's Redis under {@code keyPrefix} and
     * its MariaDB database; {@code properties} ({@code key=value}) come on top.
     */
    static List<String> arguments(BenchSettings settings, String keyPrefix, String... properties) {
        List<String> args = new ArrayList<>(List.of(
                "--server.port=0",
                "--logging.level.root=WARN",
                "--mykit.delay.embedded.enabled=false",
                "--mykit.delay.redis.host=" + settings.redisHost(),
                "--mykit.delay.redis.port=" + settings.redisPort(),
                "--mykit.delay.redis.key-prefix=" + keyPrefix,
                "--spring.datasource.url=" + jdbcUrl(settings, settings.database()),
                "--spring.datasource.username=" + settings.mysqlUser(),
                "--spring.datasource.password=" + settings.mysqlPassword()));
        Arrays.stream(properties).map(p -> "--" + p).forEach(args::add);
        return args;
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    DelayProperties properties() {
        return context.getBean(DelayProperties.class);
    }

    /** Long-polls waiting without a thread right now (scenario 9). */
    int waitingPolls() {
        return context.getBean(PullTarget.class).waitingPolls();
    }

    /** Tomcat request threads busy right now, and how many the pool holds (scenario 9). */
    int[] requestThreads() {
        org.apache.catalina.connector.Connector connector =
                ((org.springframework.boot.web.embedded.tomcat.TomcatWebServer)
                                ((WebServerApplicationContext) context).getWebServer())
                        .getTomcat()
                        .getConnector();
        if (connector.getProtocolHandler().getExecutor()
                instanceof org.apache.tomcat.util.threads.ThreadPoolExecutor pool) {
            return new int[] {pool.getActiveCount(), pool.getPoolSize()};
        }
        return new int[] {-1, -1};
    }

    /** Journal state changes (Stored, Ready, Finish) queued but not yet written to MariaDB. */
    int journalBacklog() {
        return context.getBean(StateChangeWriter.class).backlog();
    }

    /**
     * Waits until the state writer wrote every change submitted so far (to the rows, or to the delivery ledger when it
     * is on: durable either way); returns how long that took, or -1 past {@code maxMs}.
     */
    long awaitJournalWritten(long maxMs) throws InterruptedException {
        long start = System.currentTimeMillis();
        return context.getBean(StateChangeWriter.class).flush(maxMs) ? System.currentTimeMillis() - start : -1;
    }

    /** Waits until the journal has caught up; returns the milliseconds it took, or -1 if it had not after maxMs. */
    long awaitJournalDrained(long maxMs) throws InterruptedException {
        long start = System.currentTimeMillis();
        StateChangeWriter writer = context.getBean(StateChangeWriter.class);
        boolean drained = writer.flush(maxMs);
        // with the delivery ledger on, a change is in the job and log rows once folded
        Journal journal = context.getBean(Journal.class);
        while (drained && journal.ledgerRows() > 0) {
            if (System.currentTimeMillis() - start > maxMs) {
                return -1;
            }
            Thread.sleep(100);
        }
        return drained ? System.currentTimeMillis() - start : -1;
    }

    /** A job of the journal that was journaled Finish: its due time and when it first was (epoch ms). */
    record Finished(String id, long dueTime, long finishedAt, int times) {}

    /**
     * The jobs of {@code topic} journaled Finish: for a broker target, Finish is taken right after the broker confirmed
     * the send. Call it once the journal has caught up ({@link #awaitJournalDrained}).
     */
    List<Finished> finished(String topic) throws SQLException {
        // the gateway writes update_time as this JVM's local time (JobTable.toTime): read it back the same way
        ZoneId zone = ZoneId.systemDefault();
        List<Finished> finished = new ArrayList<>();
        try (Connection connection = journal(settings);
                PreparedStatement query = connection.prepareStatement("SELECT j.id, j.due_time, MIN(l.update_time),"
                        + " COUNT(*) FROM mykit_delay_queue_job j JOIN mykit_delay_queue_job_log l ON l.id = j.id"
                        + " WHERE j.topic = ? AND l.status = ? GROUP BY j.id, j.due_time")) {
            query.setString(1, topic);
            query.setInt(2, JobStatus.Finish.code());
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    long at = rs.getObject(3, LocalDateTime.class)
                            .atZone(zone)
                            .toInstant()
                            .toEpochMilli();
                    finished.add(new Finished(rs.getString(1), rs.getLong(2), at, rs.getInt(4)));
                }
            }
        }
        return finished;
    }

    /**
     * How many distinct jobs of {@code topic} the journal holds a Finish row for, and how many Finish rows: a count
     * where {@link #finished} would load a million rows. Call it once the journal has caught up.
     */
    long[] journaledFinishes(String topic) throws SQLException {
        try (Connection connection = journal(settings);
                PreparedStatement query = connection.prepareStatement("SELECT COUNT(DISTINCT l.id), COUNT(*)"
                        + " FROM mykit_delay_queue_job j JOIN mykit_delay_queue_job_log l ON l.id = j.id"
                        + " WHERE j.topic = ? AND l.status = ?")) {
            query.setString(1, topic);
            query.setInt(2, JobStatus.Finish.code());
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return new long[] {rs.getLong(1), rs.getLong(2)};
            }
        }
    }

    /**
     * Jobs Redis still holds waiting or in flight, over every bucket: 0 once a broker target confirmed them all. Two
     * ZCARDs per bucket, cheap enough to poll while measuring (a journal COUNT was not: it cost MariaDB CPU).
     */
    long waitingOrInFlight() {
        return context.getBean(StoreCounts.class).sample().stream()
                .mapToLong(bucket -> bucket.pending() + bucket.inflight())
                .sum();
    }

    /** Stops the gateway and removes every Redis key it wrote (only its own prefix; never a flush). */
    @Override
    public void close() {
        try {
            context.close();
        } finally {
            deleteKeys(settings, keyPrefix);
        }
    }

    /** Removes every Redis key containing {@code keyPrefix}: one from {@link #newKeyPrefix}, so only the bench's. */
    static void deleteKeys(BenchSettings settings, String keyPrefix) {
        try (Jedis jedis = new Jedis(settings.redisHost(), settings.redisPort())) {
            ScanParams match = new ScanParams().match("*" + keyPrefix + "*").count(1000);
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> page = jedis.scan(cursor, match);
                if (!page.getResult().isEmpty()) {
                    jedis.unlink(page.getResult().toArray(String[]::new));
                }
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        }
    }

    static String redisVersion(BenchSettings settings) {
        try (Jedis jedis = new Jedis(settings.redisHost(), settings.redisPort())) {
            return jedis.info("server")
                    .lines()
                    .filter(line -> line.startsWith("redis_version:"))
                    .map(line -> line.substring("redis_version:".length()).trim())
                    .findFirst()
                    .orElse("?");
        }
    }

    /** Version and the one setting that decides what a commit costs (1 = fsync per commit). */
    static String mariaDbDescription(BenchSettings settings) throws SQLException {
        try (Connection connection = serverConnection(settings);
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT VERSION(), @@innodb_flush_log_at_trx_commit")) {
            return rs.next() ? rs.getString(1) + " (innodb_flush_log_at_trx_commit=" + rs.getString(2) + ")" : "?";
        }
    }

    /** Creates the bench database if needed and empties its journal tables. */
    static void resetDatabase(BenchSettings settings) throws SQLException {
        try (Connection connection = serverConnection(settings);
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE IF NOT EXISTS `" + settings.database() + "` CHARACTER SET utf8mb4");
            for (String table : JOURNAL_TABLES) {
                if (tableExists(connection, settings.database(), table)) {
                    statement.execute("TRUNCATE TABLE `" + settings.database() + "`.`" + table + "`");
                }
            }
        }
    }

    private static boolean tableExists(Connection connection, String database, String table) throws SQLException {
        try (var query = connection.prepareStatement(
                "SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND table_name = ?")) {
            query.setString(1, database);
            query.setString(2, table);
            try (ResultSet rs = query.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static Connection serverConnection(BenchSettings settings) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(settings, ""), settings.mysqlUser(), settings.mysqlPassword());
    }

    /** A connection to the bench's journal database. */
    static Connection journal(BenchSettings settings) throws SQLException {
        return DriverManager.getConnection(
                jdbcUrl(settings, settings.database()), settings.mysqlUser(), settings.mysqlPassword());
    }

    private static String jdbcUrl(BenchSettings settings, String database) {
        return "jdbc:mysql://" + settings.mysqlHost() + ":" + settings.mysqlPort() + "/" + database + "?"
                + JDBC_OPTIONS;
    }
}
