package io.mykit.delay.core;

import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.config.RegistryProperties;
import io.mykit.delay.queue.cluster.BucketOwnership;
import io.mykit.delay.queue.cluster.OwnershipSettings;
import io.mykit.delay.queue.cluster.StandaloneOwnership;
import io.mykit.delay.queue.cluster.WakeBus;
import io.mykit.delay.queue.cluster.ZooKeeperOwnership;
import io.mykit.delay.queue.dispatch.pull.PullTarget;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.loop.BucketWaker;
import io.mykit.delay.queue.recovery.RecoveryService;
import io.mykit.delay.queue.recovery.RedisLossWatch;
import io.mykit.delay.queue.store.FenceTokens;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.timer.TimerGroup;
import java.time.Clock;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.SessionConnectionStateErrorPolicy;
import org.apache.curator.framework.state.StandardConnectionStateErrorPolicy;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/** Wires who pumps which bucket (mykit.delay.mode, mykit.delay.registry.*) and the wake-ups between nodes. */
@Configuration(proxyBeanMethods = false)
public class ClusterConfiguration {

    /** This node's name: in ZooKeeper, in /cluster and, outside standalone mode, in the journal's log rows. */
    @Bean
    public NodeIdentity nodeIdentity(DelayProperties properties, Environment environment) {
        String port = environment.getProperty("server.port", "8080");
        String configured = properties.getRegistry().getNodeId();
        String id = configured != null && !configured.isBlank() ? configured : NodeIdentity.hostName() + ":" + port;
        return new NodeIdentity(id, "http://" + NodeIdentity.hostName() + ":" + port);
    }

    @Bean
    public BucketOwnership bucketOwnership(
            DelayProperties properties,
            NodeIdentity node,
            RedisDelayStore store,
            FenceTokens fence,
            TimerGroup timers,
            RedisLossWatch lossWatch) {
        if (properties.getMode() == DelayProperties.Mode.STANDALONE) {
            return new StandaloneOwnership(
                    timers,
                    properties.getBuckets(),
                    node.id(),
                    fence,
                    lossWatch::restores,
                    properties.getTimer().isEnabled());
        }
        RegistryProperties registry = properties.getRegistry();
        OwnershipSettings.Timing timing = new OwnershipSettings.Timing(
                registry.getConnectionTimeout(), registry.getSessionTimeout(), registry.getSuspendGrace());
        CuratorFramework client = zooKeeperClient(registry, timing);
        OwnershipSettings.Mode mode = properties.getMode() == DelayProperties.Mode.MASTER_SLAVE
                ? OwnershipSettings.Mode.MASTER_SLAVE
                : OwnershipSettings.Mode.CLUSTER;
        OwnershipSettings settings = new OwnershipSettings(
                mode,
                node.id(),
                node.url(),
                properties.getTimer().isEnabled(),
                properties.getBuckets(),
                properties.getRedis().getKeyPrefix(),
                timing);
        ZooKeeperOwnership ownership = new ZooKeeperOwnership(
                client,
                settings,
                timers,
                fence,
                store::claimAgain,
                othersLive -> StartupLayout.ensure(properties.getRedis(), store.keys(), othersLive),
                lossWatch::restores);
        // a node that cannot reach ZooKeeper, or disagrees with the recorded layout, refuses to start
        ownership.join();
        return ownership;
    }

    private static CuratorFramework zooKeeperClient(RegistryProperties registry, OwnershipSettings.Timing timing) {
        return CuratorFrameworkFactory.builder()
                .connectString(registry.getServerList())
                .namespace(registry.getNamespace())
                .sessionTimeoutMs((int) registry.getSessionTimeout().toMillis())
                .connectionTimeoutMs((int) registry.getConnectionTimeout().toMillis())
                .retryPolicy(new ExponentialBackoffRetry(200, 10, 2_000))
                // reconnect through the configured addresses only (proxies, NAT), not those ZooKeeper advertises
                .ensembleTracker(false)
                // with a grace the leader latch keeps leadership through SUSPENDED; the ownership ends the grace
                .connectionStateErrorPolicy(
                        timing.stopsAtOnce()
                                ? new StandardConnectionStateErrorPolicy()
                                : new SessionConnectionStateErrorPolicy())
                .build();
    }

    /** Wakes a bucket's timer here, or (ZooKeeper modes) its owner on another node through Redis pub/sub. */
    @Bean(destroyMethod = "close")
    public WakeBus wakeBus(
            RedisDelayStore store,
            DelayProperties properties,
            NodeIdentity node,
            TimerGroup timers,
            BucketOwnership ownership,
            PullTarget pull,
            StateChangeWriter states,
            RecoveryService recovery,
            Clock clock) {
        WakeBus bus = new WakeBus(
                store.channels(),
                properties.getRedis().getKeyPrefix(),
                node.id(),
                timers,
                ownership,
                pull,
                states,
                clock,
                properties.getTimer().getMaxIdle().toMillis());
        if (properties.getMode() != DelayProperties.Mode.STANDALONE) {
            pull.onHandedOver(bus::handedOver);
            // a restore on one node must see every node's ends journaled first
            recovery.endingsBarrier(bus::flushEverywhere);
        }
        return bus;
    }

    @Bean
    public BucketWaker bucketWaker(DelayProperties properties, TimerGroup timers, WakeBus bus) {
        return properties.getMode() == DelayProperties.Mode.STANDALONE ? timers::wake : bus::wake;
    }
}
