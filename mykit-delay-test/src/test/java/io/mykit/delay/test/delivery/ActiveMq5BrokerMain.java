package io.mykit.delay.test.delivery;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Main class of the child JVM that {@link ActiveMq5Broker} runs: {@code <port> <brokerName> <dataDir> <readyFile>}.
 *
 * <p>The child's classpath is an ActiveMQ 5.x {@code activemq-all} jar (+ Log4j) and this class, so it names no
 * ActiveMQ type: the broker is built from a {@code broker:} URI by reflection. Once the broker is up, its version is
 * written to the ready file and main waits for the broker to stop. When stdin closes (the test JVM is gone, even killed
 * with SIGKILL) the JVM halts.
 */
final class ActiveMq5BrokerMain {

    private static final String BROKER_FACTORY = "org.apache.activemq.broker.BrokerFactory";
    private static final String METADATA = "org.apache.activemq.ActiveMQConnectionMetaData";
    private static final long START_TIMEOUT_MS = 30_000;

    private ActiveMq5BrokerMain() {}

    public static void main(String[] args) {
        try {
            haltWhenParentExits();
            int port = Integer.parseInt(args[0]);
            String brokerName = args[1];
            Path dataDir = Path.of(args[2]);
            Path readyFile = Path.of(args[3]);
            long begin = System.nanoTime();
            Object broker = startBroker(port, brokerName, dataDir);
            String version = (String)
                    Class.forName(METADATA).getField("PROVIDER_VERSION").get(null);
            announce(readyFile, version);
            System.out.println("READY ActiveMQ " + version + " " + brokerName + " on 127.0.0.1:" + port + " in "
                    + (System.nanoTime() - begin) / 1_000_000 + " ms");
            // the broker's own threads are daemons: without this wait the JVM would end with main
            broker.getClass().getMethod("waitUntilStopped").invoke(broker);
        } catch (Throwable e) {
            // the parent sees the exit and quotes this log in its failure
            e.printStackTrace();
            Runtime.getRuntime().halt(1);
        }
    }

    /**
     * OpenWire on 127.0.0.1:port only, KahaDB under dataDir (persistent sends reach the disk before the broker
     * answers), no JMX, no scheduler, and no shutdown hook: the parent ends this JVM with SIGKILL, like a crash.
     */
    private static Object startBroker(int port, String brokerName, Path dataDir) throws Exception {
        String uri = "broker:(tcp://127.0.0.1:" + port + ")"
                + "?brokerName=" + encode(brokerName)
                + "&persistent=true"
                + "&dataDirectory=" + encode(dataDir.toString())
                + "&useJmx=false"
                + "&schedulerSupport=false"
                + "&useShutdownHook=false";
        Method create = Class.forName(BROKER_FACTORY).getMethod("createBroker", URI.class, boolean.class);
        Object broker = create.invoke(null, new URI(uri), true);
        boolean started = (Boolean)
                broker.getClass().getMethod("waitUntilStarted", long.class).invoke(broker, START_TIMEOUT_MS);
        if (!started) {
            throw new IllegalStateException("broker " + uri + " did not start within " + START_TIMEOUT_MS + " ms");
        }
        return broker;
    }

    private static void haltWhenParentExits() {
        Thread watcher = new Thread(
                () -> {
                    try (InputStream in = System.in) {
                        while (in.read() >= 0) {
                            // the parent writes nothing: only the end of the stream matters
                        }
                    } catch (IOException e) {
                        // a broken pipe means the same as its end
                    }
                    Runtime.getRuntime().halt(0);
                },
                "activemq5-parent-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** Written to a temp file and moved, so the parent never reads half a line. */
    private static void announce(Path readyFile, String content) throws IOException {
        Path partial = readyFile.resolveSibling(readyFile.getFileName() + ".partial");
        Files.writeString(partial, content, StandardCharsets.UTF_8);
        Files.move(partial, readyFile, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
