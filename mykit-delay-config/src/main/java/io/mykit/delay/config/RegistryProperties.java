package io.mykit.delay.config;

import static io.mykit.delay.config.Checks.check;
import static io.mykit.delay.config.Checks.positive;

import java.time.Duration;
import java.util.List;

/** {@code mykit.delay.registry.*}: ZooKeeper, for the master-slave and cluster modes. */
public class RegistryProperties {
    /** ZooKeeper connect string, host:port[,host:port...]; the original's {@code serverList} binds here too. */
    private String serverList;
    /** Root znode of this gateway's cluster: gateways sharing Redis and the journal share it. */
    private String namespace = "mykit-delay";
    /** How long ZooKeeper waits for a silent node before its buckets move: failover takes about this long. */
    private Duration sessionTimeout = Duration.ofSeconds(6);
    /** How long one attempt to connect to ZooKeeper may take; a node not connected within three refuses to start. */
    private Duration connectionTimeout = Duration.ofSeconds(3);
    /**
     * How long buckets keep pumping after the ZooKeeper connection is suspended (a server died, a reconnect is under
     * way); unset means the longest safe grace, {@link #maxSuspendGrace}; 0 stops at once.
     */
    private Duration suspendGrace;
    /** This node's name in ZooKeeper and in the journal's log rows; default host:port. */
    private String nodeId;

    public String getServerList() {
        return serverList;
    }

    public void setServerList(String serverList) {
        this.serverList = serverList;
    }

    public String getNamespace() {
        return namespace;
    }

    public void setNamespace(String namespace) {
        this.namespace = namespace;
    }

    public Duration getSessionTimeout() {
        return sessionTimeout;
    }

    public void setSessionTimeout(Duration sessionTimeout) {
        this.sessionTimeout = sessionTimeout;
    }

    public Duration getConnectionTimeout() {
        return connectionTimeout;
    }

    public void setConnectionTimeout(Duration connectionTimeout) {
        this.connectionTimeout = connectionTimeout;
    }

    public String getNodeId() {
        return nodeId;
    }

    public void setNodeId(String nodeId) {
        this.nodeId = nodeId;
    }

    public Duration getSuspendGrace() {
        return suspendGrace;
    }

    public void setSuspendGrace(Duration suspendGrace) {
        this.suspendGrace = suspendGrace;
    }

    /**
     * A client notices a silent server after 2/3 of the session, so our session cannot expire sooner than a third of it
     * after SUSPENDED; 0.8 of that third leaves room for clock rates and the new owner's start.
     */
    public static Duration maxSuspendGrace(Duration sessionTimeout) {
        return Duration.ofMillis(sessionTimeout.toMillis() * 4 / 15);
    }

    /** Checked only in a mode that runs through ZooKeeper, named {@code mode} in the messages. */
    void validate(List<String> errors, String mode) {
        check(
                errors,
                serverList != null && !serverList.isBlank(),
                "mykit.delay.registry.server-list must be set: mode " + mode + " runs through ZooKeeper");
        check(
                errors,
                namespace != null && namespace.matches("[A-Za-z0-9_.-]{1,128}"),
                "mykit.delay.registry.namespace must match [A-Za-z0-9_.-]{1,128}, was " + namespace);
        check(errors, positive(sessionTimeout), "mykit.delay.registry.session-timeout must be > 0");
        check(errors, positive(connectionTimeout), "mykit.delay.registry.connection-timeout must be > 0");
        check(
                errors,
                suspendGrace == null || !suspendGrace.isNegative(),
                "mykit.delay.registry.suspend-grace must be >= 0, was " + suspendGrace);
        if (suspendGrace != null && positive(sessionTimeout)) {
            Duration max = maxSuspendGrace(sessionTimeout);
            check(
                    errors,
                    suspendGrace.compareTo(max) <= 0,
                    "mykit.delay.registry.suspend-grace "
                            + suspendGrace + " is longer than " + max + " (4/15 of session-timeout "
                            + sessionTimeout + "): the session could expire while this node still pumps");
        }
        check(
                errors,
                nodeId == null || nodeId.matches("[A-Za-z0-9_.:-]{1,128}"),
                "mykit.delay.registry.node-id must match [A-Za-z0-9_.:-]{1,128}, was " + nodeId);
    }
}
