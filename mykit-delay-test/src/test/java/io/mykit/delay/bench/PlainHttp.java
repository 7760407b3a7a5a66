package io.mykit.delay.bench;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One keep-alive HTTP/1.1 connection on blocking I/O, owned by one load-driver thread. The JDK HttpClient runs every
 * connection through one selector thread and futures: on this 2-core machine it took 0.4 cores (140 us per call) of the
 * cores the gateway was being measured on, and its selector queue showed up in the lateness figures. This speaks just
 * enough HTTP for the bench: a request is sent as prepared bytes, a reply is read by Content-Length or chunks, and a
 * connection the server closes is opened again for the next call.
 */
final class PlainHttp implements Closeable {
    /** A request encoded once, sent as many times as wanted. */
    record Request(String line, byte[] bytes) {
        /** {@code -Dbench.token}: sent as a bearer token on every call, to measure a gateway with tenants on. */
        private static final String TOKEN = System.getProperty("bench.token", "");

        static Request get(URI base, String pathAndQuery) {
            return encode(base, "GET", pathAndQuery, null);
        }

        static Request postJson(URI base, String path, String json) {
            return encode(base, "POST", path, json.getBytes(StandardCharsets.UTF_8));
        }

        private static Request encode(URI base, String method, String pathAndQuery, byte[] body) {
            String line = method + " " + pathAndQuery;
            StringBuilder head = new StringBuilder(line)
                    .append(" HTTP/1.1\r\nHost: ")
                    .append(base.getHost())
                    .append(':')
                    .append(base.getPort())
                    .append("\r\nAccept: application/json\r\n");
            if (!TOKEN.isEmpty()) {
                head.append("Authorization: Bearer ").append(TOKEN).append("\r\n");
            }
            if (body != null) {
                head.append("Content-Type: application/json\r\nContent-Length: ")
                        .append(body.length)
                        .append("\r\n");
            }
            byte[] headBytes = head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII);
            if (body == null) {
                return new Request(line, headBytes);
            }
            byte[] all = new byte[headBytes.length + body.length];
            System.arraycopy(headBytes, 0, all, 0, headBytes.length);
            System.arraycopy(body, 0, all, headBytes.length, body.length);
            return new Request(line, all);
        }
    }

    record Reply(int status, String body) {}

    private static final int CONNECT_TIMEOUT_MS = 5_000;
    private static final int READ_TIMEOUT_MS = 30_000;

    private final InetSocketAddress address;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private byte[] buffer = new byte[16 * 1024];
    /** Unread bytes are buffer[start, end). */
    private int start;

    private int end;

    PlainHttp(URI base) {
        this.address = new InetSocketAddress(base.getHost(), base.getPort());
    }

    /**
     * Sends the request and reads the whole reply. A kept-alive connection that the server closed before answering (no
     * byte of a reply came back) is retried once on a fresh connection; the server has not run that request.
     */
    Reply exchange(Request request) throws IOException {
        boolean reused = socket != null;
        if (!reused) {
            connect();
        }
        try {
            out.write(request.bytes());
            out.flush();
            return readReply();
        } catch (StaleConnection e) {
            close();
            if (!reused) {
                throw new IOException(request.line() + ": connection closed before a reply", e);
            }
            connect();
            out.write(request.bytes());
            out.flush();
            return readReply();
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    private void connect() throws IOException {
        Socket fresh = new Socket();
        fresh.setTcpNoDelay(true);
        fresh.setSoTimeout(READ_TIMEOUT_MS);
        fresh.connect(address, CONNECT_TIMEOUT_MS);
        socket = fresh;
        in = fresh.getInputStream();
        out = fresh.getOutputStream();
        start = 0;
        end = 0;
    }

    private Reply readReply() throws IOException {
        String statusLine = readLine(true);
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
            throw new IOException("not an HTTP reply: " + statusLine);
        }
        int status = Integer.parseInt(parts[1]);
        long length = -1;
        boolean chunked = false;
        boolean closeAfter = parts[0].equals("HTTP/1.0");
        String header;
        while (!(header = readLine(false)).isEmpty()) {
            int colon = header.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = header.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> length = Long.parseLong(value);
                case "transfer-encoding" ->
                    chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> closeAfter = value.equalsIgnoreCase("close");
                default -> {}
            }
        }
        String body;
        if (chunked) {
            body = readChunked();
        } else if (length >= 0) {
            body = readBytes((int) length);
        } else {
            throw new IOException("reply without Content-Length or chunked encoding, status " + status);
        }
        if (closeAfter) {
            close();
        }
        return new Reply(status, body);
    }

    private String readChunked() throws IOException {
        StringBuilder body = new StringBuilder();
        while (true) {
            String sizeLine = readLine(false);
            int semicolon = sizeLine.indexOf(';');
            int size = Integer.parseInt((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
            if (size == 0) {
                while (!readLine(false).isEmpty()) {
                    // trailers: none expected, skipped
                }
                return body.toString();
            }
            body.append(readBytes(size));
            readLine(false);
        }
    }

    private String readBytes(int count) throws IOException {
        while (end - start < count) {
            fill(false);
        }
        String text = new String(buffer, start, count, StandardCharsets.UTF_8);
        start += count;
        return text;
    }

    /** One CRLF-terminated line without its CRLF; {@code first} marks the status line (EOF there = stale). */
    private String readLine(boolean first) throws IOException {
        // counted from start: fill() may move the unread bytes to the front of the buffer
        int scanned = 0;
        while (true) {
            for (int i = start + scanned; i + 1 < end; i++) {
                if (buffer[i] == '\r' && buffer[i + 1] == '\n') {
                    String line = new String(buffer, start, i - start, StandardCharsets.ISO_8859_1);
                    start = i + 2;
                    return line;
                }
            }
            scanned = Math.max(0, end - start - 1);
            fill(first && end == start);
        }
    }

    /** Reads more bytes; an end of stream before any byte of a reply means the server had closed the connection. */
    private void fill(boolean nothingReadYet) throws IOException {
        if (start > 0 && start == end) {
            start = 0;
            end = 0;
        }
        if (end == buffer.length) {
            if (start > 0) {
                System.arraycopy(buffer, start, buffer, 0, end - start);
                end -= start;
                start = 0;
            } else {
                byte[] bigger = new byte[buffer.length * 2];
                System.arraycopy(buffer, 0, bigger, 0, end);
                buffer = bigger;
            }
        }
        int read;
        try {
            read = in.read(buffer, end, buffer.length - end);
        } catch (java.net.SocketException e) {
            if (nothingReadYet) {
                throw new StaleConnection(e.toString());
            }
            throw e;
        }
        if (read < 0) {
            if (nothingReadYet) {
                throw new StaleConnection("end of stream");
            }
            throw new EOFException("connection closed in the middle of a reply");
        }
        end += read;
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing: nothing left to do with the socket
            }
            socket = null;
        }
    }

    /** The server closed a kept-alive connection before sending any byte of a reply. */
    private static final class StaleConnection extends IOException {
        StaleConnection(String message) {
            super(message);
        }
    }
}
