package io.mykit.delay.test.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP server on loopback that accepts every connection and then neither reads nor writes a byte: a broker or a name
 * server that hangs with its port open, which a client sees as connected and waits on.
 */
public final class SilentPeer implements AutoCloseable {
    private final ServerSocket server;
    private final Set<Socket> held = ConcurrentHashMap.newKeySet();

    private SilentPeer(ServerSocket server) {
        this.server = server;
        Thread acceptor = new Thread(this::acceptLoop, "silent-peer-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public static SilentPeer start() {
        try {
            ServerSocket server = new ServerSocket();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return new SilentPeer(server);
        } catch (IOException e) {
            throw new UncheckedIOException("silent peer cannot listen on loopback", e);
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Connections accepted and still held open. */
    public int connections() {
        return held.size();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                held.add(server.accept());
            } catch (IOException e) {
                // closed: the loop ends with the server
                return;
            }
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (Socket socket : held) {
            try {
                socket.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        held.clear();
    }
}
