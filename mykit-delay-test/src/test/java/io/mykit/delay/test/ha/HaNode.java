package io.mykit.delay.test.ha;

import io.mykit.delay.test.chaos.ChildGateway;
import io.mykit.delay.test.support.TcpProxy;
import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One gateway of an HA test: a child JVM with a node id that reaches every ZooKeeper server only through a proxy of its
 * own, so a test can cut this node's ZooKeeper link while its Redis and journal stay reachable.
 */
final class HaNode implements AutoCloseable {

    private final String id;
    private final ChildGateway gateway;
    private final List<TcpProxy> zooKeeperLinks;
    private final HaHttp http = new HaHttp();

    HaNode(String id, ChildGateway gateway, List<TcpProxy> zooKeeperLinks) {
        this.id = id;
        this.gateway = gateway;
        this.zooKeeperLinks = List.copyOf(zooKeeperLinks);
    }

    /** The ZooKeeper connect string this node is given: one proxy per server. */
    static String connectString(List<TcpProxy> links) {
        return links.stream().map(link -> "127.0.0.1:" + link.port()).collect(Collectors.joining(","));
    }

    String id() {
        return id;
    }

    String baseUrl() {
        return gateway.baseUrl();
    }

    void start() {
        gateway.start();
    }

    int kill9() throws InterruptedException {
        return gateway.kill9();
    }

    int terminate() throws InterruptedException {
        return gateway.terminate();
    }

    void freeze() {
        gateway.freeze();
    }

    void thaw() {
        gateway.thaw();
    }

    boolean isAlive() {
        return gateway.isAlive();
    }

    /** Drops this node's ZooKeeper connections and refuses new ones; Redis and the journal stay reachable. */
    void cutZooKeeper() {
        zooKeeperLinks.forEach(TcpProxy::cut);
    }

    void healZooKeeper() {
        zooKeeperLinks.forEach(TcpProxy::heal);
    }

    /** Local ports of this node's proxies' connections to the ZooKeeper servers. */
    Set<Integer> zooKeeperUpstreamPorts() {
        Set<Integer> ports = new HashSet<>();
        zooKeeperLinks.forEach(link -> ports.addAll(link.upstreamPorts()));
        return ports;
    }

    /** GET /cluster; an IOException when the node does not answer within {@code timeout}. */
    ClusterView cluster(Duration timeout) throws IOException {
        HaHttp.Answer answer = http.get(clusterUrl(), timeout);
        if (!answer.ok()) {
            throw new IllegalStateException(id + " answered GET /cluster with " + answer);
        }
        return ClusterView.parse(answer.data());
    }

    String clusterUrl() {
        return baseUrl() + "/cluster";
    }

    @Override
    public void close() throws InterruptedException {
        try {
            gateway.close();
        } finally {
            zooKeeperLinks.forEach(TcpProxy::close);
        }
    }

    @Override
    public String toString() {
        return id + "@" + baseUrl();
    }
}
