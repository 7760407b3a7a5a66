package io.mykit.delay.bench;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One connection to beanstalkd on blocking I/O, speaking its text protocol (put, reserve-with-timeout, delete,
 * pause-tube, stats): the bench's peer client, owned by one driver thread as {@link PlainHttp} is for the gateway.
 * Commands that a real client would pipeline (a batch of deletes, the reserves after a batch's first job) go out in one
 * write and their answers are read in order.
 */
final class BeanstalkClient implements Closeable {
    /** The highest priority beanstalkd knows (most urgent): the bench's jobs are all alike. */
    static final int PRIORITY = 0;

    private static final int CONNECT_TIMEOUT_MS = 5_000;
    /** A reserve-with-timeout waits up to its own timeout; anything longer than this is a hung server. */
    private static final int READ_TIMEOUT_MS = 60_000;

    private static final byte[] CRLF = {'\r', '\n'};

    /** A reserved job: its id and body. */
    record Reserved(long id, byte[] body) {}

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final byte[] buffer = new byte[64 * 1024];
    /** Unread bytes are buffer[start, end). */
    private int start;

    private int end;
    /** Commands written since the last flush, so a pipelined batch leaves in one write. */
    private final StringBuilder pending = new StringBuilder();

    BeanstalkClient(String host, int port) throws IOException {
        socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
            socket.setSoTimeout(READ_TIMEOUT_MS);
            in = socket.getInputStream();
            out = socket.getOutputStream();
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** Puts from now on go to {@code tube}. */
    void use(String tube) throws IOException {
        command("use " + tube);
        expect("USING " + tube, "use");
    }

    /** Reserves from now on take only from {@code tube}. */
    void watchOnly(String tube) throws IOException {
        command("watch " + tube);
        expectPrefix("WATCHING ", "watch");
        if (!"default".equals(tube)) {
            command("ignore default");
            expectPrefix("WATCHING ", "ignore");
        }
    }

    /** One job into the used tube, due {@code delaySeconds} from when beanstalkd reads it; returns its id. */
    long put(int delaySeconds, int ttrSeconds, byte[] body) throws IOException {
        writePut(delaySeconds, ttrSeconds, body);
        flush();
        return inserted(readLine());
    }

    /** {@code count} jobs in one write, their answers read after: a prefill. Returns their ids. */
    long[] putPipelined(int count, int delaySeconds, int ttrSeconds, byte[] body) throws IOException {
        for (int i = 0; i < count; i++) {
            writePut(delaySeconds, ttrSeconds, body);
        }
        flush();
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            ids[i] = inserted(readLine());
        }
        return ids;
    }

    /** Waits up to {@code timeoutSeconds} for a job of the watched tubes; null when none came. */
    Reserved reserve(int timeoutSeconds) throws IOException {
        command("reserve-with-timeout " + timeoutSeconds);
        return reserved(readLine());
    }

    /**
     * Deletes {@code ids} (reserved by this connection) and waits up to {@code timeoutSeconds} for the next job, in one
     * write: a consumer goes back to its reserve without a round trip of its own for the deletes. Returns the next job
     * or null; the deletes were all answered DELETED when it returns.
     */
    Reserved deleteAndReserve(List<Long> ids, int timeoutSeconds) throws IOException {
        for (long id : ids) {
            pending.append("delete ").append(id).append("\r\n");
        }
        pending.append("reserve-with-timeout ").append(timeoutSeconds).append("\r\n");
        flush();
        for (int i = 0; i < ids.size(); i++) {
            expect("DELETED", "delete " + ids.get(i));
        }
        return reserved(readLine());
    }

    /** Deletes {@code ids} (reserved by this connection) in one write. */
    void deleteAll(List<Long> ids) throws IOException {
        for (long id : ids) {
            pending.append("delete ").append(id).append("\r\n");
        }
        flush();
        for (long id : ids) {
            expect("DELETED", "delete " + id);
        }
    }

    /**
     * Up to {@code max} more jobs that are ready now, by reserve-with-timeout 0 in rounds of 1, 2, 4... commands per
     * write: a round that comes back short ends it, so a batch costs about as many commands as it finds jobs.
     */
    List<Reserved> reserveReady(int max) throws IOException {
        List<Reserved> jobs = new ArrayList<>();
        int round = 1;
        while (jobs.size() < max) {
            int asked = Math.min(round, max - jobs.size());
            for (int i = 0; i < asked; i++) {
                pending.append("reserve-with-timeout 0\r\n");
            }
            flush();
            int found = 0;
            for (int i = 0; i < asked; i++) {
                Reserved job = reserved(readLine());
                if (job != null) {
                    jobs.add(job);
                    found++;
                }
            }
            if (found < asked) {
                break;
            }
            round *= 2;
        }
        return jobs;
    }

    /** No job of {@code tube} is reserved for {@code seconds} from when beanstalkd reads this. */
    void pauseTube(String tube, int seconds) throws IOException {
        command("pause-tube " + tube + " " + seconds);
        expect("PAUSED", "pause-tube");
    }

    /** The server's {@code stats}: current-jobs-ready, current-jobs-delayed, pid, version... */
    Map<String, String> stats() throws IOException {
        command("stats");
        String line = readLine();
        if (!line.startsWith("OK ")) {
            throw new IOException("beanstalkd answered '" + line + "' to stats");
        }
        String yaml = new String(readBody(Integer.parseInt(line.substring(3).trim())), StandardCharsets.UTF_8);
        Map<String, String> stats = new LinkedHashMap<>();
        for (String entry : yaml.split("\n")) {
            int colon = entry.indexOf(": ");
            if (colon > 0) {
                stats.put(
                        entry.substring(0, colon).trim(),
                        entry.substring(colon + 2).trim());
            }
        }
        return stats;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    private void writePut(int delaySeconds, int ttrSeconds, byte[] body) {
        // the bench's bodies are ASCII, so one char per byte
        pending.append("put ")
                .append(PRIORITY)
                .append(' ')
                .append(delaySeconds)
                .append(' ')
                .append(ttrSeconds)
                .append(' ')
                .append(body.length)
                .append("\r\n")
                .append(new String(body, StandardCharsets.ISO_8859_1))
                .append("\r\n");
    }

    private void command(String line) throws IOException {
        pending.append(line).append("\r\n");
        flush();
    }

    private void flush() throws IOException {
        out.write(pending.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        pending.setLength(0);
    }

    private static long inserted(String line) throws IOException {
        if (!line.startsWith("INSERTED ")) {
            throw new IOException("beanstalkd answered '" + line + "' to put");
        }
        return Long.parseLong(line.substring("INSERTED ".length()));
    }

    /** A reserve's answer: the job, or null for TIMED_OUT. */
    private Reserved reserved(String line) throws IOException {
        if (line.equals("TIMED_OUT")) {
            return null;
        }
        if (!line.startsWith("RESERVED ")) {
            throw new IOException("beanstalkd answered '" + line + "' to reserve-with-timeout");
        }
        int space = line.indexOf(' ', "RESERVED ".length());
        long id = Long.parseLong(line.substring("RESERVED ".length(), space));
        int bytes = Integer.parseInt(line.substring(space + 1));
        return new Reserved(id, readBody(bytes));
    }

    private void expect(String answer, String what) throws IOException {
        String line = readLine();
        if (!line.equals(answer)) {
            throw new IOException("beanstalkd answered '" + line + "' to " + what);
        }
    }

    private void expectPrefix(String prefix, String what) throws IOException {
        String line = readLine();
        if (!line.startsWith(prefix)) {
            throw new IOException("beanstalkd answered '" + line + "' to " + what);
        }
    }

    /** {@code length} bytes and the CRLF after them. */
    private byte[] readBody(int length) throws IOException {
        byte[] body = new byte[length];
        int copied = 0;
        while (copied < length) {
            if (start == end) {
                fill();
            }
            int n = Math.min(length - copied, end - start);
            System.arraycopy(buffer, start, body, copied, n);
            start += n;
            copied += n;
        }
        for (byte expected : CRLF) {
            if (start == end) {
                fill();
            }
            if (buffer[start++] != expected) {
                throw new IOException("beanstalkd sent a body of " + length + " bytes not followed by CRLF");
            }
        }
        return body;
    }

    /** One answer line without its CRLF. */
    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder(32);
        while (true) {
            if (start == end) {
                fill();
            }
            byte b = buffer[start++];
            if (b == '\r') {
                if (start == end) {
                    fill();
                }
                if (buffer[start++] != '\n') {
                    throw new IOException("beanstalkd sent CR without LF after '" + line + "'");
                }
                return line.toString();
            }
            line.append((char) b);
        }
    }

    private void fill() throws IOException {
        int n = in.read(buffer, 0, buffer.length);
        if (n < 0) {
            throw new EOFException("beanstalkd closed the connection");
        }
        start = 0;
        end = n;
    }
}
