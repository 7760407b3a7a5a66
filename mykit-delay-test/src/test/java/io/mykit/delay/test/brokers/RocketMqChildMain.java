package io.mykit.delay.test.brokers;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.apache.rocketmq.auth.config.AuthConfig;
import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.broker.BrokerPathConfigHelper;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.namesrv.NamesrvConfig;
import org.apache.rocketmq.namesrv.NamesrvController;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * Main class of the child JVMs that {@link TestRocketMq} runs: {@code namesrv|broker <config> <ready>}.
 *
 * <p>The config file's keys are bean properties of RocketMQ's config objects, applied the way {@code mqbroker -c}
 * applies them. When the server is up, its address is written to the ready file. When stdin closes (the test JVM is
 * gone) the JVM halts at once.
 */
final class RocketMqChildMain {

    static final String NAMESRV = "namesrv";
    static final String BROKER = "broker";

    private static final Duration REGISTRATION_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration REGISTRATION_RETRY = Duration.ofMillis(300);

    private RocketMqChildMain() {}

    public static void main(String[] args) {
        ChildSide.serve(args[0], Path.of(args[2]), () -> {
            // without it, requests carry version -1 and the name server keeps no topic routes
            System.setProperty(RemotingCommand.REMOTING_VERSION_KEY, Integer.toString(MQVersion.CURRENT_VERSION));
            Properties config = load(Path.of(args[1]));
            return switch (args[0]) {
                case NAMESRV -> startNameServer(config);
                case BROKER -> startBroker(config);
                default -> throw new IllegalArgumentException("unknown role " + args[0]);
            };
        });
    }

    private static String startNameServer(Properties config) throws Exception {
        NamesrvConfig namesrvConfig = new NamesrvConfig();
        NettyServerConfig serverConfig = new NettyServerConfig();
        NettyClientConfig clientConfig = new NettyClientConfig();
        MixAll.properties2Object(config, namesrvConfig);
        MixAll.properties2Object(config, serverConfig);
        MixAll.properties2Object(config, clientConfig);
        long begin = System.nanoTime();
        NamesrvController controller = new NamesrvController(namesrvConfig, serverConfig, clientConfig);
        if (!controller.initialize()) {
            throw new IllegalStateException("name server failed to initialize");
        }
        controller.start();
        progress("name server started", begin);
        return serverConfig.getBindAddress() + ":"
                + controller.getRemotingServer().localListenPort();
    }

    private static String startBroker(Properties config) throws Exception {
        BrokerConfig brokerConfig = new BrokerConfig();
        NettyServerConfig serverConfig = new NettyServerConfig();
        NettyClientConfig clientConfig = new NettyClientConfig();
        MessageStoreConfig storeConfig = new MessageStoreConfig();
        AuthConfig authConfig = new AuthConfig();
        for (Object target : new Object[] {brokerConfig, serverConfig, clientConfig, storeConfig, authConfig}) {
            MixAll.properties2Object(config, target);
        }
        authConfig.setConfigName(brokerConfig.getBrokerName());
        authConfig.setClusterName(brokerConfig.getBrokerClusterName());
        authConfig.setAuthConfigPath(
                Path.of(storeConfig.getStorePathRootDir(), "config").toString());
        BrokerPathConfigHelper.setBrokerConfigPath(brokerConfig.getBrokerConfigPath());
        // read by the broker's logback configuration
        System.setProperty("brokerLogDir", "");

        long begin = System.nanoTime();
        BrokerController controller =
                new BrokerController(brokerConfig, serverConfig, clientConfig, storeConfig, authConfig);
        if (!controller.initialize()) {
            throw new IllegalStateException("broker failed to initialize");
        }
        progress("broker initialized", begin);
        controller.start();
        progress("broker started", begin);
        awaitRegistration(controller);
        progress("broker registered", begin);
        return controller.getBrokerAddr();
    }

    /** The broker's first registration is sometimes skipped, leaving it unknown for 10 s or more: force it. */
    private static void awaitRegistration(BrokerController controller) throws InterruptedException {
        long deadline = System.nanoTime() + REGISTRATION_TIMEOUT.toNanos();
        Exception lastFailure = null;
        while (System.nanoTime() < deadline) {
            try {
                if (isRegistered(controller)) {
                    return;
                }
                controller.registerBrokerAll(true, false, true);
            } catch (Exception e) {
                // the name server may still be starting; retried until the deadline
                System.out.println("registration not confirmed yet: " + e);
                lastFailure = e;
            }
            Thread.sleep(REGISTRATION_RETRY.toMillis());
        }
        throw new IllegalStateException(
                "broker " + controller.getBrokerAddr() + " not registered with "
                        + controller.getBrokerConfig().getNamesrvAddr() + " within " + REGISTRATION_TIMEOUT,
                lastFailure);
    }

    private static boolean isRegistered(BrokerController controller) throws Exception {
        ClusterInfo cluster = controller.getBrokerOuterAPI().getBrokerClusterInfo();
        BrokerData broker =
                cluster.getBrokerAddrTable().get(controller.getBrokerConfig().getBrokerName());
        return broker != null
                && controller.getBrokerAddr().equals(broker.getBrokerAddrs().get(MixAll.MASTER_ID));
    }

    private static void progress(String step, long beginNanos) {
        long millis = Duration.ofNanos(System.nanoTime() - beginNanos).toMillis();
        long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
        System.out.printf("%s in %d ms (JVM up %d ms)%n", step, millis, uptime);
    }

    private static Properties load(Path file) throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
        }
        return properties;
    }
}
