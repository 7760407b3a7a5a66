package io.mykit.delay.config;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** The whole {@code mykit.delay.*} configuration tree; {@link #validate()} runs at start-up. */
@ConfigurationProperties("mykit.delay")
public class DelayProperties implements InitializingBean {
    public static final int DEFAULT_BUCKETS = 16;
    public static final String DEFAULT_KEY_PREFIX = "mykit-delay";
    private static final Pattern HOST_AND_PORT = Pattern.compile("(\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9_.-]+):[0-9]{1,5}");

    /** Number of Redis ZSET buckets jobs are spread over by CRC32(id). */
    private int buckets = DEFAULT_BUCKETS;
    /** Who pumps the buckets: this node alone, the ZooKeeper leader, or every live node its share. */
    private Mode mode = Mode.STANDALONE;
    /** ZooKeeper, for the master-slave and cluster modes. */
    private final Registry registry = new Registry();
    /** Redis connection and key layout. */
    private final Redis redis = new Redis();
    /** Per-bucket timers that move due jobs. */
    private final Timer timer = new Timer();
    /** HTTP pull consumers. */
    private final Pull pull = new Pull();
    /** Input limits checked before anything is stored. */
    private final Limits limits = new Limits();
    /** The MySQL journal's write batching. */
    private final Journal journal = new Journal();
    /** Where due jobs go, and how failed sends are retried. */
    private final Dispatch dispatch = new Dispatch();
    /** The ActiveMQ target. */
    private final ActiveMq activemq = new ActiveMq();
    /** The RocketMQ target. */
    private final RocketMq rocketmq = new RocketMq();
    /** Rebuilding Redis from the journal. */
    private final Recovery recovery = new Recovery();
    /** Admin endpoints. */
    private final Admin admin = new Admin();
    private final Http http = new Http();
    /** Metrics at /actuator/prometheus. */
    private final Metrics metrics = new Metrics();

    public int getBuckets() { return buckets; }
    public void setBuckets(int buckets) { this.buckets = buckets; }
    public Mode getMode() { return mode; }
    public void setMode(Mode mode) { this.mode = mode; }
    public Registry getRegistry() { return registry; }
    public Redis getRedis() { return redis; }
    public Timer getTimer() { return timer; }
    public Pull getPull() { return pull; }
    public Limits getLimits() { return limits; }
    public Journal getJournal() { return journal; }
    public Dispatch getDispatch() { return dispatch; }
    public ActiveMq getActivemq() { return activemq; }
    public RocketMq getRocketmq() { return rocketmq; }
    public Recovery getRecovery() { return recovery; }
    public Admin getAdmin() { return admin; }
    public Http getHttp() { return http; }
    public Metrics getMetrics() { return metrics; }

    @Override
    public void afterPropertiesSet() {
        validate();
    }

    /** Fails fast with a message naming the key, instead of failing at the first message. */
    public void validate() {
        List<String> errors = new ArrayList<>();
        check(errors, buckets >= 1 && buckets <= 1024, "mykit.delay.buckets must be 1..1024, was " + buckets);
        if (redis.isCluster()) {
            validateClusterNodes(errors);
        } else {
            check(errors, redis.host != null && !redis.host.isBlank(), "mykit.delay.redis.host must be set");
            check(errors, redis.port > 0 && redis.port < 65536, "mykit.delay.redis.port must be 1..65535, was " + redis.port);
        }
        check(errors, redis.keyPrefix != null && redis.keyPrefix.matches("[A-Za-z0-9_.:-]{1,64}"),
                "mykit.delay.redis.key-prefix must match [A-Za-z0-9_.:-]{1,64}, was " + redis.keyPrefix);
        check(errors, redis.poolSize >= 2, "mykit.delay.redis.pool-size must be >= 2");
        check(errors, timer.batchSize >= 1 && timer.batchSize <= 10_000, "mykit.delay.timer.batch-size must be 1..10000");
        check(errors, positive(timer.maxIdle), "mykit.delay.timer.max-idle must be > 0");
        check(errors, positive(timer.dispatchTimeout), "mykit.delay.timer.dispatch-timeout must be > 0");
        check(errors, positive(timer.sweepInterval), "mykit.delay.timer.sweep-interval must be > 0");
        check(errors, positive(pull.defaultTtr), "mykit.delay.pull.default-ttr must be > 0");
        check(errors, positive(pull.maxTimeout), "mykit.delay.pull.max-timeout must be > 0");
        check(errors, positive(pull.pollInterval), "mykit.delay.pull.poll-interval must be > 0");
        check(errors, pull.maxWaitingPolls >= 1, "mykit.delay.pull.max-waiting-polls must be >= 1");
        check(errors, limits.maxBodyBytes >= 1, "mykit.delay.limits.max-body-bytes must be >= 1");
        check(errors, limits.maxBatchSize >= 1, "mykit.delay.limits.max-batch-size must be >= 1");
        check(errors, positive(limits.maxDelay), "mykit.delay.limits.max-delay must be > 0");
        check(errors, limits.defaultTries >= 1, "mykit.delay.limits.default-tries must be >= 1");
        check(errors, journal.batchSize >= 1, "mykit.delay.journal.batch-size must be >= 1");
        check(errors, journal.writers >= 1, "mykit.delay.journal.writers must be >= 1");
        check(errors, journal.ledgerFoldAfter != null && !journal.ledgerFoldAfter.isNegative(),
                "mykit.delay.journal.ledger-fold-after must be >= 0");
        check(errors, journal.ledgerFoldSize >= 1, "mykit.delay.journal.ledger-fold-size must be >= 1");
        check(errors, positive(journal.repairAfter), "mykit.delay.journal.repair-after must be > 0");
        check(errors, journal.stateLinger != null && !journal.stateLinger.isNegative()
                && journal.stateLinger.toMillis() <= 1_000, "mykit.delay.journal.state-linger must be 0-1s");
        check(errors, journal.purgeBatchSize >= 1 && journal.purgeBatchSize <= 10_000,
                "mykit.delay.journal.purge-batch-size must be 1..10000");
        check(errors, journal.purgePause != null && !journal.purgePause.isNegative(),
                "mykit.delay.journal.purge-pause must be >= 0");
        check(errors, positive(journal.purgeInterval), "mykit.delay.journal.purge-interval must be > 0");
        check(errors, positive(recovery.checkInterval), "mykit.delay.recovery.check-interval must be > 0");
        check(errors, recovery.pageSize >= 1 && recovery.pageSize <= 20_000, "mykit.delay.recovery.page-size must be 1..20000");
        check(errors, positive(metrics.sampleInterval), "mykit.delay.metrics.sample-interval must be > 0");
        check(errors, http.warmup == null || !http.warmup.isNegative() && http.warmup.compareTo(Duration.ofMinutes(5)) <= 0,
                "mykit.delay.http.warmup must be 0..5m");
        validateDispatch(errors);
        validateRegistry(errors);
        if (!errors.isEmpty()) {
            throw new IllegalStateException("Invalid mykit-delay configuration:\n  " + String.join("\n  ", errors));
        }
    }

    private void validateDispatch(List<String> errors) {
        Set<String> used = new java.util.LinkedHashSet<>();
        used.add(dispatch.defaultTarget);
        used.addAll(dispatch.routes.values());
        for (String target : used) {
            check(errors, Dispatch.TARGETS.contains(target), "mykit.delay.dispatch: unknown target '" + target
                    + "' (known: " + String.join(", ", Dispatch.TARGETS) + ")");
        }
        dispatch.routes.keySet().forEach(pattern -> check(errors, pattern.matches("[A-Za-z0-9_.*\\-]{1,128}"),
                "mykit.delay.dispatch.routes: bad topic pattern '" + pattern + "' (letters, digits, _ . - and *)"));
        check(errors, positive(dispatch.retryBase), "mykit.delay.dispatch.retry-base must be > 0");
        check(errors, positive(dispatch.retryCap), "mykit.delay.dispatch.retry-cap must be > 0");
        check(errors, dispatch.senders >= 1, "mykit.delay.dispatch.senders must be >= 1");
        check(errors, dispatch.backlog >= 1, "mykit.delay.dispatch.backlog must be >= 1");
        check(errors, dispatch.backlogWait != null && !dispatch.backlogWait.isNegative()
                && dispatch.backlogWait.toMillis() <= 60_000, "mykit.delay.dispatch.backlog-wait must be 0..60s");
        check(errors, dispatch.stopWait != null && !dispatch.stopWait.isNegative()
                && dispatch.stopWait.toMillis() <= 300_000, "mykit.delay.dispatch.stop-wait must be 0..5m");
        if (used.contains(Dispatch.ACTIVEMQ)) {
            check(errors, activemq.brokerUrl != null && !activemq.brokerUrl.isBlank(),
                    "mykit.delay.activemq.broker-url must be set: a route uses the activemq target");
            check(errors, "queue".equals(activemq.destinationType) || "topic".equals(activemq.destinationType),
                    "mykit.delay.activemq.destination-type must be queue or topic");
            check(errors, "body".equals(activemq.payload) || "job-json".equals(activemq.payload),
                    "mykit.delay.activemq.payload must be body or job-json, was " + activemq.payload);
        }
        if (used.contains(Dispatch.ROCKETMQ)) {
            check(errors, rocketmq.namesrvAddr != null && !rocketmq.namesrvAddr.isBlank(),
                    "mykit.delay.rocketmq.namesrv-addr must be set: a route uses the rocketmq target");
            check(errors, rocketmq.producerGroup != null && !rocketmq.producerGroup.isBlank(),
                    "mykit.delay.rocketmq.producer-group must be set");
        }
    }

    private void validateClusterNodes(List<String> errors) {
        List<String> bad = redis.clusterNodes.stream().filter(node -> !isHostAndPort(node)).toList();
        check(errors, bad.isEmpty(), "mykit.delay.redis.cluster-nodes must be host:port entries (port 1..65535), bad: "
                + String.join(", ", bad.stream().map(node -> "'" + node + "'").toList()));
        check(errors, redis.database == 0, "mykit.delay.redis.database must be 0 with cluster-nodes (a Redis Cluster "
                + "has database 0 only), was " + redis.database);
    }

    /** host:port or [ipv6]:port, with a port of 1..65535. */
    private static boolean isHostAndPort(String node) {
        if (node == null || !HOST_AND_PORT.matcher(node).matches()) {
            return false;
        }
        int port = Integer.parseInt(node.substring(node.lastIndexOf(':') + 1));
        return port > 0 && port < 65536;
    }

    private void validateRegistry(List<String> errors) {
        if (mode == Mode.STANDALONE) {
            return;
        }
        String name = mode.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        check(errors, registry.serverList != null && !registry.serverList.isBlank(),
                "mykit.delay.registry.server-list must be set: mode " + name + " runs through ZooKeeper");
        check(errors, registry.namespace != null && registry.namespace.matches("[A-Za-z0-9_.-]{1,128}"),
                "mykit.delay.registry.namespace must match [A-Za-z0-9_.-]{1,128}, was " + registry.namespace);
        check(errors, positive(registry.sessionTimeout), "mykit.delay.registry.session-timeout must be > 0");
        check(errors, positive(registry.connectionTimeout), "mykit.delay.registry.connection-timeout must be > 0");
        check(errors, registry.suspendGrace == null || !registry.suspendGrace.isNegative(),
                "mykit.delay.registry.suspend-grace must be >= 0, was " + registry.suspendGrace);
        if (registry.suspendGrace != null && positive(registry.sessionTimeout)) {
            Duration max = Registry.maxSuspendGrace(registry.sessionTimeout);
            check(errors, registry.suspendGrace.compareTo(max) <= 0, "mykit.delay.registry.suspend-grace "
                    + registry.suspendGrace + " is longer than " + max + " (4/15 of session-timeout "
                    + registry.sessionTimeout + "): the session could expire while this node still pumps");
        }
        check(errors, registry.nodeId == null || registry.nodeId.matches("[A-Za-z0-9_.:-]{1,128}"),
                "mykit.delay.registry.node-id must match [A-Za-z0-9_.:-]{1,128}, was " + registry.nodeId);
    }

    private static boolean positive(Duration d) {
        return d != null && !d.isNegative() && !d.isZero();
    }

    private static void check(List<String> errors, boolean ok, String message) {
        if (!ok) {
            errors.add(message);
        }
    }

    public static class Redis {
        /** Redis host; left unset (and no cluster-nodes), the embedded default starts its own Redis. */
        private String host;
        /** Redis port. */
        private int port = 6379;
        /** Redis password, if any. */
        private String password;
        /** Redis logical database. */
        private int database;
        /** Prefix of every key the gateway writes; lets several gateways share one Redis. */
        private String keyPrefix = DEFAULT_KEY_PREFIX;
        /** Socket and connect timeout. */
        private Duration timeout = Duration.ofSeconds(2);
        /** Maximum pooled connections (HTTP threads, timers and long-polls share them); per node on a cluster. */
        private int poolSize = 64;
        /** Redis Cluster seed nodes, host:port each; when set, host and port are not used. */
        private List<String> clusterNodes = new ArrayList<>();
        /** Compact job records in Redis; false while older gateways (JSON readers only) share the Redis. */
        private boolean compactRecords = true;

        public String getHost() { return host; }
        public void setHost(String host) { this.host = host; }
        public int getPort() { return port; }
        public void setPort(int port) { this.port = port; }
        public String getPassword() { return password; }
        public void setPassword(String password) { this.password = password; }
        public int getDatabase() { return database; }
        public void setDatabase(int database) { this.database = database; }
        public String getKeyPrefix() { return keyPrefix; }
        public void setKeyPrefix(String keyPrefix) { this.keyPrefix = keyPrefix; }
        public Duration getTimeout() { return timeout; }
        public void setTimeout(Duration timeout) { this.timeout = timeout; }
        public int getPoolSize() { return poolSize; }
        public void setPoolSize(int poolSize) { this.poolSize = poolSize; }
        public List<String> getClusterNodes() { return clusterNodes; }
        public void setClusterNodes(List<String> clusterNodes) { this.clusterNodes = clusterNodes; }
        public boolean isCompactRecords() { return compactRecords; }
        public void setCompactRecords(boolean compactRecords) { this.compactRecords = compactRecords; }

        /** True when the gateway talks to a Redis Cluster rather than a single Redis. */
        public boolean isCluster() {
            return clusterNodes != null && !clusterNodes.isEmpty();
        }
    }

    public static class Timer {
        /** Whether this node runs the bucket timers and the sweeper. */
        private boolean enabled = true;
        /** Most due jobs one pump moves; a full batch pumps again at once. */
        private int batchSize = 200;
        /** Longest a timer sleeps without looking (catches pushes made through other nodes). */
        private Duration maxIdle = Duration.ofMillis(500);
        /** Deadline for handing a pumped job to its target; past it the sweeper returns the job. */
        private Duration dispatchTimeout = Duration.ofSeconds(30);
        /** How often in-flight entries past their deadline are looked for. */
        private Duration sweepInterval = Duration.ofMillis(500);

        public boolean isEnabled() { return enabled; }
        public void setEnabled(boolean enabled) { this.enabled = enabled; }
        public int getBatchSize() { return batchSize; }
        public void setBatchSize(int batchSize) { this.batchSize = batchSize; }
        public Duration getMaxIdle() { return maxIdle; }
        public void setMaxIdle(Duration maxIdle) { this.maxIdle = maxIdle; }
        public Duration getDispatchTimeout() { return dispatchTimeout; }
        public void setDispatchTimeout(Duration dispatchTimeout) { this.dispatchTimeout = dispatchTimeout; }
        public Duration getSweepInterval() { return sweepInterval; }
        public void setSweepInterval(Duration sweepInterval) { this.sweepInterval = sweepInterval; }
    }

    public static class Pull {
        public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(5);
        /** Half of Tomcat's default max-connections: the other half stays free for pushes and finishes. */
        public static final int DEFAULT_MAX_WAITING_POLLS = 4_096;
        /** Reservation time when a puller gives no ttr. */
        private Duration defaultTtr = Duration.ofSeconds(30);
        /** Longest ttr a puller may ask for. */
        private Duration maxTtr = Duration.ofHours(1);
        /** Longest long-poll a puller may ask for. */
        private Duration maxTimeout = Duration.ofSeconds(30);
        /**
         * How often each topic with waiting long-polls looks once without a wake-up: the safety net for a wake-up lost
         * between nodes (Redis pub/sub delivers at most once). Hand-overs wake their polls at once, on any node.
         */
        private Duration pollInterval = DEFAULT_POLL_INTERVAL;
        /** Most long-polls waiting at once on this node; one more is answered 429. */
        private int maxWaitingPolls = DEFAULT_MAX_WAITING_POLLS;

        public Duration getDefaultTtr() { return defaultTtr; }
        public void setDefaultTtr(Duration defaultTtr) { this.defaultTtr = defaultTtr; }
        public Duration getMaxTtr() { return maxTtr; }
        public void setMaxTtr(Duration maxTtr) { this.maxTtr = maxTtr; }
        public Duration getMaxTimeout() { return maxTimeout; }
        public void setMaxTimeout(Duration maxTimeout) { this.maxTimeout = maxTimeout; }
        public Duration getPollInterval() { return pollInterval; }
        public void setPollInterval(Duration pollInterval) { this.pollInterval = pollInterval; }
        public int getMaxWaitingPolls() { return maxWaitingPolls; }
        public void setMaxWaitingPolls(int maxWaitingPolls) { this.maxWaitingPolls = maxWaitingPolls; }
    }

    public static class Limits {
        /** Largest body, in UTF-8 bytes. */
        private int maxBodyBytes = 64 * 1024;
        /** Most jobs in one /push/batch call. */
        private int maxBatchSize = 1000;
        /** Longest delay (and ttl) accepted. */
        private Duration maxDelay = Duration.ofDays(366);
        /** Tries of a job that names none. */
        private int defaultTries = 16;
        /** Largest HTTP request body, in bytes. */
        private long maxRequestBytes = 32L * 1024 * 1024;

        public int getMaxBodyBytes() { return maxBodyBytes; }
        public void setMaxBodyBytes(int maxBodyBytes) { this.maxBodyBytes = maxBodyBytes; }
        public int getMaxBatchSize() { return maxBatchSize; }
        public void setMaxBatchSize(int maxBatchSize) { this.maxBatchSize = maxBatchSize; }
        public Duration getMaxDelay() { return maxDelay; }
        public void setMaxDelay(Duration maxDelay) { this.maxDelay = maxDelay; }
        public int getDefaultTries() { return defaultTries; }
        public void setDefaultTries(int defaultTries) { this.defaultTries = defaultTries; }
        public long getMaxRequestBytes() { return maxRequestBytes; }
        public void setMaxRequestBytes(long maxRequestBytes) { this.maxRequestBytes = maxRequestBytes; }
    }

    public static class Journal {
        public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);
        public static final int DEFAULT_WRITERS = 4;
        /** Most rows one group commit or one state-change flush writes. */
        private int batchSize = 1000;
        /**
         * Threads committing pushes: one gathers and inserts while the others wait for their COMMITs, so a push waits
         * for about one commit instead of the previous group's too. Bench on 2 shared cores, 1 -> 4: batch push 8-12.5k ->
         * 14-30k jobs/s; single push even (smaller groups, ~15% more CPU per push), so 1 suits a CPU-starved host.
         */
        private int writers = DEFAULT_WRITERS;
        /**
         * How long the state writer gathers changes before a flush: a job's Ready and Finish then often share one
         * flush, which writes only the last status to the job row (0 = flush whatever is queued at once).
         */
        private Duration stateLinger = Duration.ofMillis(50);
        /** A push journaled this long ago but never confirmed in Redis is re-added by the repairer. */
        private Duration repairAfter = Duration.ofSeconds(10);
        /**
         * On MySQL/MariaDB, send each journal transaction as one multi-statement round trip (BEGIN; ...; COMMIT) instead
         * of five; needs the driver's allowMultiQueries, which the gateway adds to a jdbc:mysql: URL unless it is named.
         */
        private boolean oneTrip = true;
        /**
         * Journal each state-change flush (deliveries, finishes, retries) as one packed ledger row, folded into the job
         * and log rows in the background, instead of a status UPDATE and a log row per job: a burst's deliveries cost
         * the database one INSERT per flush. Readers of the journal tables see statuses once folded; the gateway's
         * own reads see them at once.
         */
        private boolean ledger = false;
        /** Ledger rows are folded once they are this old (the fold gathers more changes per transaction). */
        private Duration ledgerFoldAfter = Duration.ofSeconds(1);
        /** About how many ledger changes one fold transaction applies. */
        private int ledgerFoldSize = 5_000;
        /** How long a push waits for its group commit before answering 503. */
        private Duration pushTimeout = Duration.ofSeconds(10);
        /** Finished and cancelled jobs (and their log rows) last changed longer ago are purged; 0 or negative keeps all. */
        private Duration retention = DEFAULT_RETENTION;
        /** Most job rows one purge statement deletes (their log rows go in statements of the same size). */
        private int purgeBatchSize = 500;
        /** Pause between two purge statements, so the purge never crowds out the push road's commits. */
        private Duration purgePause = Duration.ofMillis(200);
        /** How often the purge looks for rows past the retention. */
        private Duration purgeInterval = Duration.ofMinutes(10);

        public int getBatchSize() { return batchSize; }
        public void setBatchSize(int batchSize) { this.batchSize = batchSize; }
        public int getWriters() { return writers; }
        public void setWriters(int writers) { this.writers = writers; }
        public Duration getStateLinger() { return stateLinger; }
        public void setStateLinger(Duration stateLinger) { this.stateLinger = stateLinger; }
        public Duration getRepairAfter() { return repairAfter; }
        public void setRepairAfter(Duration repairAfter) { this.repairAfter = repairAfter; }
        public boolean isLedger() { return ledger; }
        public void setLedger(boolean ledger) { this.ledger = ledger; }
        public Duration getLedgerFoldAfter() { return ledgerFoldAfter; }
        public void setLedgerFoldAfter(Duration ledgerFoldAfter) { this.ledgerFoldAfter = ledgerFoldAfter; }
        public int getLedgerFoldSize() { return ledgerFoldSize; }
        public void setLedgerFoldSize(int ledgerFoldSize) { this.ledgerFoldSize = ledgerFoldSize; }
        public boolean isOneTrip() { return oneTrip; }
        public void setOneTrip(boolean oneTrip) { this.oneTrip = oneTrip; }
        public Duration getPushTimeout() { return pushTimeout; }
        public void setPushTimeout(Duration pushTimeout) { this.pushTimeout = pushTimeout; }
        public Duration getRetention() { return retention; }
        public void setRetention(Duration retention) { this.retention = retention; }
        /** Whether ended jobs are purged at all. */
        public boolean isRetentionEnabled() { return retention != null && retention.toMillis() > 0; }
        public int getPurgeBatchSize() { return purgeBatchSize; }
        public void setPurgeBatchSize(int purgeBatchSize) { this.purgeBatchSize = purgeBatchSize; }
        public Duration getPurgePause() { return purgePause; }
        public void setPurgePause(Duration purgePause) { this.purgePause = purgePause; }
        public Duration getPurgeInterval() { return purgeInterval; }
        public void setPurgeInterval(Duration purgeInterval) { this.purgeInterval = purgeInterval; }
    }

    public static class Dispatch {
        public static final String PULL = "pull";
        public static final String ROCKETMQ = "rocketmq";
        public static final String ACTIVEMQ = "activemq";
        public static final String LOG = "log";
        public static final List<String> TARGETS = List.of(PULL, ROCKETMQ, ACTIVEMQ, LOG);

        /** Target of topics no route names: pull, rocketmq, activemq or log. */
        private String defaultTarget = PULL;
        /** Topic (exact, or a pattern with *) to target; exact names win over patterns, longer patterns over shorter. */
        private Map<String, String> routes = new LinkedHashMap<>();
        /** First retry delay after a failed send; doubles per try. */
        private Duration retryBase = Duration.ofSeconds(1);
        /** Longest retry delay. */
        private Duration retryCap = Duration.ofMinutes(5);
        /** Threads sending to brokers in parallel (a slow send holds one of them, not a bucket). */
        private int senders = 8;
        /** Most jobs a broker target holds waiting for its senders. */
        private int backlog = 10_000;
        /**
         * How long the broker may answer nothing at all while a target's backlog is full before the target counts as
         * hung: hand-overs then fail at once (retried with backoff) until a batch finishes, instead of holding the
         * bucket timers other topics share. While the broker answers, a timer waits for room (back-pressure).
         */
        private Duration backlogWait = Duration.ofSeconds(2);
        /** How long a stop waits for broker senders; then their clients close and jobs still held stay in flight. */
        private Duration stopWait = Duration.ofSeconds(10);

        public String getDefaultTarget() { return defaultTarget; }
        public void setDefaultTarget(String defaultTarget) { this.defaultTarget = defaultTarget; }
        public Map<String, String> getRoutes() { return routes; }
        public void setRoutes(Map<String, String> routes) { this.routes = routes; }
        public Duration getRetryBase() { return retryBase; }
        public void setRetryBase(Duration retryBase) { this.retryBase = retryBase; }
        public Duration getRetryCap() { return retryCap; }
        public void setRetryCap(Duration retryCap) { this.retryCap = retryCap; }
        public int getSenders() { return senders; }
        public void setSenders(int senders) { this.senders = senders; }
        public int getBacklog() { return backlog; }
        public void setBacklog(int backlog) { this.backlog = backlog; }
        public Duration getBacklogWait() { return backlogWait; }
        public void setBacklogWait(Duration backlogWait) { this.backlogWait = backlogWait; }
        public Duration getStopWait() { return stopWait; }
        public void setStopWait(Duration stopWait) { this.stopWait = stopWait; }
    }

    public static class ActiveMq {
        /** Broker URL, e.g. failover:(tcp://127.0.0.1:61616); the original's brokerUrl binds here too. */
        private String brokerUrl;
        /** Broker user. */
        private String username;
        /** Broker password. */
        private String password;
        /** Send each topic to a JMS queue or a JMS topic of the same name. */
        private String destinationType = "queue";
        /** Prefix added to the topic to name the destination. */
        private String destinationPrefix = "";
        /** How long a send (or connect) may wait for the broker before it counts as failed. */
        private Duration sendTimeout = Duration.ofSeconds(5);
        /**
         * Wait for the broker's answer to every send inside a batch's transaction. Off: only the commit is awaited,
         * which relies on the broker refusing a commit after a failed send (ActiveMQ >= 5.10's default,
         * rollbackOnlyOnAsyncException); turn it on for a broker where that is switched off.
         */
        private boolean confirmEachSend = false;
        /**
         * What a message's text is: {@code body} (the job's body, metadata in message properties) or {@code job-json}
         * (the whole job as JSON with the original mykit-delay's field names, for consumers written against it).
         */
        private String payload = "body";

        public String getPayload() { return payload; }
        public void setPayload(String payload) { this.payload = payload; }
        public String getBrokerUrl() { return brokerUrl; }
        public void setBrokerUrl(String brokerUrl) { this.brokerUrl = brokerUrl; }
        public String getUsername() { return username; }
        public void setUsername(String username) { this.username = username; }
        public String getPassword() { return password; }
        public void setPassword(String password) { this.password = password; }
        public String getDestinationType() { return destinationType; }
        public void setDestinationType(String destinationType) { this.destinationType = destinationType; }
        public String getDestinationPrefix() { return destinationPrefix; }
        public void setDestinationPrefix(String destinationPrefix) { this.destinationPrefix = destinationPrefix; }
        public Duration getSendTimeout() { return sendTimeout; }
        public void setSendTimeout(Duration sendTimeout) { this.sendTimeout = sendTimeout; }
        public boolean isConfirmEachSend() { return confirmEachSend; }
        public void setConfirmEachSend(boolean confirmEachSend) { this.confirmEachSend = confirmEachSend; }
    }

    public static class RocketMq {
        /** Name-server list, host:port;host:port; the original's namesrvAddr binds here too. */
        private String namesrvAddr;
        /** Producer group. */
        private String producerGroup = "mykit-delay-producer";
        /** Prefix added to the topic to name the RocketMQ topic. */
        private String topicPrefix = "";
        /** Explicit topic -> RocketMQ topic names; wins over the prefix. */
        private Map<String, String> topicMapping = new LinkedHashMap<>();
        /** How long a send may wait for SEND_OK. */
        private Duration sendTimeout = Duration.ofSeconds(3);

        public String getNamesrvAddr() { return namesrvAddr; }
        public void setNamesrvAddr(String namesrvAddr) { this.namesrvAddr = namesrvAddr; }
        public String getProducerGroup() { return producerGroup; }
        public void setProducerGroup(String producerGroup) { this.producerGroup = producerGroup; }
        public String getTopicPrefix() { return topicPrefix; }
        public void setTopicPrefix(String topicPrefix) { this.topicPrefix = topicPrefix; }
        public Map<String, String> getTopicMapping() { return topicMapping; }
        public void setTopicMapping(Map<String, String> topicMapping) { this.topicMapping = topicMapping; }
        public Duration getSendTimeout() { return sendTimeout; }
        public void setSendTimeout(Duration sendTimeout) { this.sendTimeout = sendTimeout; }
    }

    public static class Recovery {
        /** Restore Redis from the journal automatically when Redis lost its data (epoch key missing). */
        private boolean auto = true;
        /** How often the epoch key is checked. */
        private Duration checkInterval = Duration.ofSeconds(2);
        /** Journal rows read (and Redis adds pipelined) per restore page. */
        private int pageSize = 5_000;

        public boolean isAuto() { return auto; }
        public void setAuto(boolean auto) { this.auto = auto; }
        public Duration getCheckInterval() { return checkInterval; }
        public void setCheckInterval(Duration checkInterval) { this.checkInterval = checkInterval; }
        public int getPageSize() { return pageSize; }
        public void setPageSize(int pageSize) { this.pageSize = pageSize; }
    }

    public enum Mode { STANDALONE, MASTER_SLAVE, CLUSTER }

    public static class Registry {
        /** ZooKeeper connect string, host:port[,host:port...]; the original's {@code serverList} binds here too. */
        private String serverList;
        /** Root znode of this gateway's cluster: gateways sharing Redis and the journal share it. */
        private String namespace = "mykit-delay";
        /** How long ZooKeeper waits for a silent node before its buckets move: failover takes about this long. */
        private Duration sessionTimeout = Duration.ofSeconds(6);
        private Duration connectionTimeout = Duration.ofSeconds(3);
        /**
         * How long buckets keep pumping after the ZooKeeper connection is suspended (a server died, a reconnect is
         * under way); unset means the longest safe grace, {@link #maxSuspendGrace}; 0 stops at once.
         */
        private Duration suspendGrace;
        /** This node's name in ZooKeeper and in the journal's log rows; default host:port. */
        private String nodeId;

        public String getServerList() { return serverList; }
        public void setServerList(String serverList) { this.serverList = serverList; }
        public String getNamespace() { return namespace; }
        public void setNamespace(String namespace) { this.namespace = namespace; }
        public Duration getSessionTimeout() { return sessionTimeout; }
        public void setSessionTimeout(Duration sessionTimeout) { this.sessionTimeout = sessionTimeout; }
        public Duration getConnectionTimeout() { return connectionTimeout; }
        public void setConnectionTimeout(Duration connectionTimeout) { this.connectionTimeout = connectionTimeout; }
        public String getNodeId() { return nodeId; }
        public void setNodeId(String nodeId) { this.nodeId = nodeId; }
        public Duration getSuspendGrace() { return suspendGrace; }
        public void setSuspendGrace(Duration suspendGrace) { this.suspendGrace = suspendGrace; }

        /**
         * A client notices a silent server after 2/3 of the session, so our session cannot expire sooner than a third
         * of it after SUSPENDED; 0.8 of that third leaves room for clock rates and the new owner's start.
         */
        public static Duration maxSuspendGrace(Duration sessionTimeout) {
            return Duration.ofMillis(sessionTimeout.toMillis() * 4 / 15);
        }
    }

    public static class Admin {
        /** Token admin calls (/reStore*, /reStoreJob, /clearAll, dead-letter changes) need from every address. */
        private String token;
        /**
         * Without a token: false (default) answers admin calls only to programs on this host (loopback, not through a
         * proxy, called as localhost, 127.0.0.1 or [::1]), true to anyone; never to a web page of another origin.
         */
        private boolean open = false;

        public String getToken() { return token; }
        public void setToken(String token) { this.token = token; }
        public boolean isOpen() { return open; }
        public void setOpen(boolean open) { this.open = open; }
    }

    public static class Http {
        /**
         * For clients written against the original mykit-delay: every answer is HTTP 200 and the real status is in
         * the envelope's {@code code} ({@code success:false} for errors).
         */
        private boolean legacyStatus = false;
        /**
         * Answer POST /push, GET /get/{topic} and GET /finish, plainly spelled, in a servlet filter rather than through
         * Spring MVC's dispatch (same answers, less CPU per call); false sends them through the controllers too.
         */
        private boolean directRoutes = true;
        /**
         * Before the port opens, at most this long of the gateway's own jobs in topic {@code mykit-delay-warmup}, pushed,
         * pulled, finished and cancelled through a loopback port of the same web server, so the first clients meet
         * compiled code; it ends sooner once the JIT has settled (0 = none). Unset: 15 s on external stores, none on
         * the embedded ones.
         */
        private Duration warmup;

        public Duration getWarmup() { return warmup; }
        public void setWarmup(Duration warmup) { this.warmup = warmup; }
        public boolean isDirectRoutes() { return directRoutes; }
        public void setDirectRoutes(boolean directRoutes) { this.directRoutes = directRoutes; }
        public boolean isLegacyStatus() { return legacyStatus; }
        public void setLegacyStatus(boolean legacyStatus) { this.legacyStatus = legacyStatus; }
    }

    public static class Metrics {
        /** Topics that get their own topic tag; every other topic is tagged "other" (keeps the series count bounded). */
        private List<String> topics = new ArrayList<>();
        /** How often the gauges that need Redis (pending, in flight, ready) are sampled; scrapes read the last sample. */
        private Duration sampleInterval = Duration.ofSeconds(5);

        public List<String> getTopics() { return topics; }
        public void setTopics(List<String> topics) { this.topics = topics; }
        public Duration getSampleInterval() { return sampleInterval; }
        public void setSampleInterval(Duration sampleInterval) { this.sampleInterval = sampleInterval; }
    }
}
