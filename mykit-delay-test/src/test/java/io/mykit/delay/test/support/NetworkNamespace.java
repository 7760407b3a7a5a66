package io.mykit.delay.test.support;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A caller on another machine, made on this one: a network namespace of the test's own, joined to this host's by a veth
 * pair whose two addresses come from a random IPv6 unique-local /64 (so they clash with no network of the machine's),
 * and a TCP relay running inside it ({@link NamespaceRelay}). A connection to one of {@link #relayPorts()} on
 * {@link #insideAddress()} reaches the given port of this host from {@link #insideAddress()}, a non-loopback peer.
 * Needs root and iproute2; without them it fails, it does not skip.
 */
public final class NetworkNamespace implements AutoCloseable {
    private static final Duration RELAY_START = Duration.ofSeconds(30);

    private final String name;
    private final String hostAddress;
    private final String insideAddress;
    private final Path dir;
    private Process relay;
    private List<Integer> relayPorts = List.of();

    private NetworkNamespace(String name, String hostAddress, String insideAddress, Path dir) {
        this.name = name;
        this.hostAddress = hostAddress;
        this.insideAddress = insideAddress;
        this.dir = dir;
    }

    /** Makes the namespace and its link, and starts the relay to each of {@code hostPorts} (this host's ports). */
    public static NetworkNamespace withRelayTo(int... hostPorts) {
        String unique = HexFormat.of()
                .toHexDigits(ThreadLocalRandom.current().nextLong())
                .substring(6);
        String prefix = "fd" + unique.substring(0, 2) + ":" + unique.substring(2, 6) + ":" + unique.substring(6, 10);
        Path dir;
        try {
            dir = Files.createTempDirectory("netns-" + unique);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        NetworkNamespace namespace = new NetworkNamespace("mkd-" + unique, prefix + "::1", prefix + "::2", dir);
        try {
            namespace.link(unique);
            namespace.startRelay(hostPorts);
        } catch (RuntimeException e) {
            namespace.close();
            throw e;
        }
        return namespace;
    }

    /** The namespace's end of the link: the peer address the host's servers see. */
    public String insideAddress() {
        return insideAddress;
    }

    /** This host's end of the link. */
    public String hostAddress() {
        return hostAddress;
    }

    /** The relay's ports on {@link #insideAddress()}, one per host port given, in that order. */
    public List<Integer> relayPorts() {
        return relayPorts;
    }

    private void link(String unique) {
        String outer = "mkdh" + unique.substring(0, 8);
        String inner = "mkdn" + unique.substring(0, 8);
        ip("netns", "add", name);
        ip("link", "add", outer, "type", "veth", "peer", "name", inner, "netns", name);
        // nodad: an address is usable at once instead of after duplicate address detection's second or two
        ip("addr", "add", hostAddress + "/64", "dev", outer, "nodad");
        ip("link", "set", outer, "up");
        ip("-n", name, "addr", "add", insideAddress + "/64", "dev", inner, "nodad");
        ip("-n", name, "link", "set", inner, "up");
        ip("-n", name, "link", "set", "lo", "up");
    }

    private void startRelay(int... hostPorts) {
        Path ready = dir.resolve("relay.ready");
        Path log = dir.resolve("relay.log");
        List<String> command = new ArrayList<>(List.of(
                "ip",
                "netns",
                "exec",
                name,
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx32m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                NamespaceRelay.class.getName(),
                ready.toString(),
                insideAddress,
                hostAddress));
        Arrays.stream(hostPorts).forEach(port -> command.add(Integer.toString(port)));
        try {
            // stdin stays a pipe from this JVM: the relay halts when it closes, so it never outlives the test JVM
            relay = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the relay: " + command, e);
        }
        await().atMost(RELAY_START)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> Files.exists(ready) || !relay.isAlive());
        if (!Files.exists(ready)) {
            throw new IllegalStateException("the relay in namespace " + name + " exited with " + relay.exitValue()
                    + "; its log:\n" + TestFiles.tail(log));
        }
        try {
            relayPorts = Arrays.stream(Files.readString(ready, StandardCharsets.UTF_8)
                            .trim()
                            .split(","))
                    .map(Integer::valueOf)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops the relay and deletes the namespace, which takes both ends of the veth pair with it. */
    @Override
    public void close() {
        if (relay != null) {
            relay.destroyForcibly();
            try {
                relay.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        ip("netns", "del", name);
        TestFiles.deleteRecursively(dir);
    }

    private static void ip(String... arguments) {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(arguments));
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(
                        String.join(" ", command) + " failed (root and iproute2 are needed): " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + command, e);
        }
    }
}
