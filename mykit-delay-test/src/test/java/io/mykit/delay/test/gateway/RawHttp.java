package io.mykit.delay.test.gateway;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 request over a plain socket, its target sent byte for byte: java.net.URI and the JDK client normalise or
 * refuse spellings such as {@code /x/..;/clearAll}, and those are exactly what a path check must be tried with. The
 * request says {@code Connection: close}, so the reply is everything read until the server closes.
 */
public final class RawHttp {
    private static final int TIMEOUT_MS = 30_000;

    /** Status, headers (names in lower case) and body of a reply; a reply to HEAD has an empty body. */
    public record Answer(int status, Map<String, String> headers, String body) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private RawHttp() {}

    /**
     * Sends {@code method target HTTP/1.1} to host:port with the given extra headers and body (null = none). The Host
     * header names host:port unless {@code headers} has one.
     */
    public static Answer send(
            String host, int port, String method, String target, Map<String, String> headers, byte[] body)
            throws IOException {
        StringBuilder head =
                new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        if (headers.keySet().stream().noneMatch("Host"::equalsIgnoreCase)) {
            head.append("Host: ")
                    .append(host.contains(":") ? "[" + host + "]" : host)
                    .append(':')
                    .append(port)
                    .append("\r\n");
        }
        head.append("Connection: close\r\n");
        headers.forEach(
                (name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        if (body != null) {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        } else if (!method.equals("GET") && !method.equals("HEAD")) {
            head.append("Content-Length: 0\r\n");
        }
        head.append("\r\n");
        try (Socket socket = new Socket()) {
            socket.setSoTimeout(TIMEOUT_MS);
            socket.connect(new InetSocketAddress(host, port), TIMEOUT_MS);
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) {
                out.write(body);
            }
            out.flush();
            return parse(socket.getInputStream().readAllBytes(), method + " " + target);
        }
    }

    private static Answer parse(byte[] reply, String request) throws IOException {
        String text = new String(reply, StandardCharsets.ISO_8859_1);
        int headEnd = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/1.") || headEnd < 0) {
            throw new IOException(request + ": not an HTTP reply: " + text.substring(0, Math.min(200, text.length())));
        }
        String[] lines = text.substring(0, headEnd).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ", 3)[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(
                        lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
            }
        }
        byte[] rest = new byte[reply.length - headEnd - 4];
        System.arraycopy(reply, headEnd + 4, rest, 0, rest.length);
        boolean chunked = "chunked".equalsIgnoreCase(headers.get("transfer-encoding"));
        byte[] body = chunked ? unchunk(rest, request) : rest;
        return new Answer(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static byte[] unchunk(byte[] chunks, String request) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String text = new String(chunks, StandardCharsets.ISO_8859_1);
        int at = 0;
        while (true) {
            int lineEnd = text.indexOf("\r\n", at);
            if (lineEnd < 0) {
                throw new IOException(request + ": chunked body ends without its last chunk");
            }
            String size = text.substring(at, lineEnd);
            int length =
                    Integer.parseInt((size.contains(";") ? size.substring(0, size.indexOf(';')) : size).trim(), 16);
            if (length == 0) {
                return out.toByteArray();
            }
            out.write(chunks, lineEnd + 2, length);
            at = lineEnd + 2 + length + 2;
        }
    }
}
