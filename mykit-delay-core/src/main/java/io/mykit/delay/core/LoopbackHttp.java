package io.mykit.delay.core;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The start-up warm-up's client: one blocking HTTP/1.1 keep-alive connection to the gateway's loopback connector. It is
 * this small on purpose: a general client (java.net.http) is itself cold at start-up and spent the warm-up's cores on
 * its own compilation and hand-offs instead of the gateway's.
 */
final class LoopbackHttp implements Closeable {
    /** A status code and the body as text. */
    record Answer(int status, String body) {}

    /**
     * The request headers of each client style: a Host by IPv4 or by name, with and without a port, and the headers
     * common clients add. Tomcat's parser and Spring's content negotiation branch on them, and a branch first taken by
     * the real load after the port opened would throw compiled code away under it.
     */
    private static final String[] STYLES = {
        "Host: 127.0.0.1:%d\r\nUser-Agent: curl/8.5.0\r\nAccept: */*\r\n",
        "Host: localhost:%d\r\nUser-Agent: mykit-delay-warmup\r\nAccept: application/json\r\n"
                + "Connection: keep-alive\r\n",
        "Host: 127.0.0.1\r\n",
        "Host: localhost:%d\r\nAccept: application/json, text/plain, */*\r\nUser-Agent: Java-http-client/17\r\n"
    };

    private final int port;
    private final int timeoutMs;
    private final String headers;
    private final String contentType;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    /** A client whose requests carry the headers of {@code style} (any int: it picks one of a few, in turn). */
    LoopbackHttp(int port, int timeoutMs, int style) {
        this.port = port;
        this.timeoutMs = timeoutMs;
        int pick = Math.floorMod(style, STYLES.length);
        this.headers = String.format(Locale.ROOT, STYLES[pick], port);
        this.contentType = pick % 2 == 0 ? "application/json" : "application/json; charset=UTF-8";
    }

    /** Connects on first use and again after the server closed the connection (Tomcat: every 100 requests). */
    private void connect() throws IOException {
        if (socket != null) {
            return;
        }
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(timeoutMs);
        in = new BufferedInputStream(socket.getInputStream(), 8192);
        out = socket.getOutputStream();
    }

    Answer get(String path) throws IOException {
        return send("GET", path, null);
    }

    Answer delete(String path) throws IOException {
        return send("DELETE", path, null);
    }

    Answer post(String path, String json) throws IOException {
        return send("POST", path, json);
    }

    private Answer send(String method, String path, String json) throws IOException {
        byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(256)
                .append(method)
                .append(' ')
                .append(path)
                .append(" HTTP/1.1\r\n")
                .append(headers);
        if (json != null) {
            head.append("Content-Type: ")
                    .append(contentType)
                    .append("\r\nContent-Length: ")
                    .append(body.length)
                    .append("\r\n");
        } else if (method.equals("POST")) {
            head.append("Content-Length: 0\r\n");
        }
        connect();
        try {
            out.write(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            return read();
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    private Answer read() throws IOException {
        String statusLine = line();
        if (!statusLine.startsWith("HTTP/1.1 ") || statusLine.length() < 12) {
            throw new IOException("not an HTTP/1.1 answer: " + statusLine);
        }
        int status = Integer.parseInt(statusLine.substring(9, 12));
        long length = -1;
        boolean chunked = false;
        boolean closing = false;
        String header;
        while (!(header = line()).isEmpty()) {
            int colon = header.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = header.substring(0, colon).trim();
            String value = header.substring(colon + 1).trim();
            if (name.equalsIgnoreCase("Content-Length")) {
                length = Long.parseLong(value);
            } else if (name.equalsIgnoreCase("Transfer-Encoding") && value.equalsIgnoreCase("chunked")) {
                chunked = true;
            } else if (name.equalsIgnoreCase("Connection") && value.equalsIgnoreCase("close")) {
                closing = true;
            }
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (chunked) {
            long size;
            while ((size = Long.parseLong(chunkSize(line()), 16)) > 0) {
                copy(size, body);
                line();
            }
            while (!line().isEmpty()) {
                // trailers, none expected
            }
        } else if (length > 0) {
            copy(length, body);
        }
        if (closing) {
            close();
        }
        return new Answer(status, body.toString(StandardCharsets.UTF_8));
    }

    private static String chunkSize(String line) {
        int extension = line.indexOf(';');
        return (extension < 0 ? line : line.substring(0, extension)).trim();
    }

    private void copy(long count, ByteArrayOutputStream to) throws IOException {
        byte[] bytes = in.readNBytes(Math.toIntExact(count));
        if (bytes.length < count) {
            throw new EOFException("answer cut after " + bytes.length + " of " + count + " bytes");
        }
        to.write(bytes);
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder(64);
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new EOFException("connection closed mid-answer");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    @Override
    public void close() throws IOException {
        Socket open = socket;
        socket = null;
        if (open != null) {
            open.close();
        }
    }
}
