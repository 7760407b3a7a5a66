package io.mykit.delay.test.brokers;

import java.time.Duration;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * Creates topics on a broker with the admin client and waits until the name server routes them, for the test brokers of
 * every version (the client speaks the same admin requests to 4.x and 5.x brokers).
 */
final class RocketMqAdmin implements AutoCloseable {
    private static final Duration ROUTE_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration ROUTE_POLL = Duration.ofMillis(50);
    private static final long ADMIN_TIMEOUT_MS = 5_000;

    private final String namesrvAddr;
    private DefaultMQAdminExt client;

    RocketMqAdmin(String namesrvAddr) {
        this.namesrvAddr = namesrvAddr;
    }

    /** Creates (or updates) a topic with {@code queues} read/write queues and waits until it is routed. */
    synchronized void createTopic(String brokerAddr, String topic, int queues) {
        TopicConfig config = new TopicConfig(topic, queues, queues, PermName.PERM_READ | PermName.PERM_WRITE);
        try {
            client().createAndUpdateTopicConfig(brokerAddr, config);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create topic " + topic + " on " + brokerAddr, e);
        }
        awaitRoute(topic);
    }

    /**
     * The version the broker reports of itself, e.g. {@code V4_9_7}. A broker started moments ago answers the stats
     * request with an error until its first stats sample is taken (4.9.7: NoSuchElementException), so it is asked again
     * until {@link #ROUTE_TIMEOUT}.
     */
    synchronized String brokerVersion(String brokerAddr) {
        long deadline = System.nanoTime() + ROUTE_TIMEOUT.toNanos();
        while (true) {
            try {
                return client().fetchBrokerRuntimeStats(brokerAddr).getTable().get("brokerVersionDesc");
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "cannot read the runtime stats of " + brokerAddr + " within " + ROUTE_TIMEOUT, e);
                }
            }
            pause("the runtime stats of " + brokerAddr);
        }
    }

    private void awaitRoute(String topic) {
        long deadline = System.nanoTime() + ROUTE_TIMEOUT.toNanos();
        while (true) {
            MQClientException notRouted = null;
            try {
                TopicRouteData route = client().examineTopicRouteInfo(topic);
                if (route != null && !route.getQueueDatas().isEmpty()) {
                    return;
                }
            } catch (MQClientException e) {
                // TOPIC_NOT_EXIST until the broker's registration reaches the name server
                notRouted = e;
            } catch (RemotingException | InterruptedException e) {
                throw new IllegalStateException("cannot read the route of " + topic + " from " + namesrvAddr, e);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "name server " + namesrvAddr + " has no route for " + topic + " after " + ROUTE_TIMEOUT,
                        notRouted);
            }
            pause("the route of " + topic);
        }
    }

    private static void pause(String awaited) {
        try {
            Thread.sleep(ROUTE_POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + awaited, e);
        }
    }

    private DefaultMQAdminExt client() {
        if (client == null) {
            DefaultMQAdminExt admin = new DefaultMQAdminExt(ADMIN_TIMEOUT_MS);
            admin.setNamesrvAddr(namesrvAddr);
            admin.setInstanceName("mykit-test-admin-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
            admin.setAdminExtGroup("mykit_test_admin_" + System.nanoTime());
            try {
                admin.start();
            } catch (MQClientException e) {
                throw new IllegalStateException("cannot start the RocketMQ admin client for " + namesrvAddr, e);
            }
            client = admin;
        }
        return client;
    }

    @Override
    public synchronized void close() {
        if (client != null) {
            client.shutdown();
            client = null;
        }
    }
}
