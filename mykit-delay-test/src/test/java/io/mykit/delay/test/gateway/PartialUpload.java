package io.mykit.delay.test.gateway;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A request over a plain socket whose body is declared in full (Content-Length) but sent only in part, so a test can
 * see what the server answers while most of the body has not left the client.
 */
public final class PartialUpload implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    /** Status, headers (names in lower case) and body of an answer. */
    public record Answer(int status, Map<String, String> headers, String body) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private PartialUpload(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = socket.getInputStream();
    }

    /** Sends the request head, declaring {@code declared} body bytes, and the first bytes of the body. */
    public static PartialUpload start(
            int port, String method, String target, Map<String, String> headers, long declared, byte[] first)
            throws IOException {
        StringBuilder head =
                new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        head.append("Host: 127.0.0.1:").append(port).append("\r\n");
        head.append("Content-Type: application/json\r\n");
        headers.forEach(
                (name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        head.append("Content-Length: ").append(declared).append("\r\n\r\n");
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        PartialUpload upload = new PartialUpload(socket);
        upload.out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        upload.out.write(first);
        upload.out.flush();
        return upload;
    }

    /** Sends more of the body. */
    public void send(byte[] more) throws IOException {
        out.write(more);
        out.flush();
    }

    /**
     * The answer, waiting at most {@code timeoutMs}; null when the server closed the connection without one.
     *
     * @throws SocketTimeoutException when nothing came in time
     */
    public Answer answer(int timeoutMs) throws IOException {
        socket.setSoTimeout(timeoutMs);
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int last4 = 0;
        while (last4 != 0x0D0A0D0A) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            last4 = (last4 << 8) | b;
        }
        String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(
                        lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
            }
        }
        String length = headers.get("content-length");
        byte[] body = length != null
                ? in.readNBytes(Integer.parseInt(length))
                : "chunked".equalsIgnoreCase(headers.get("transfer-encoding")) ? chunks() : untilClosed();
        return new Answer(
                Integer.parseInt(lines[0].split(" ", 3)[1]), headers, new String(body, StandardCharsets.UTF_8));
    }

    /** A chunked body, up to its last (empty) chunk. */
    private byte[] chunks() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String size = line();
            int length = Integer.parseInt(size.contains(";") ? size.substring(0, size.indexOf(';')) : size, 16);
            if (length == 0) {
                return body.toByteArray();
            }
            body.write(in.readNBytes(length));
            line();
        }
    }

    /** A body that ends with the connection; a reset after it (the server never read our body) ends it too. */
    private byte[] untilClosed() {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                body.write(buffer, 0, n);
            }
        } catch (IOException reset) {
            // what came before the reset is the answer
        }
        return body.toByteArray();
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
            line.write(b);
        }
        return line.toString(StandardCharsets.ISO_8859_1).trim();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
