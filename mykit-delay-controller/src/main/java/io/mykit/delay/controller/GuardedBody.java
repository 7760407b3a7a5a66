package io.mykit.delay.controller;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;

/**
 * A request body as the handler reads it, straight from the network: counted against its route's limit (413), checked
 * as strict UTF-8 (400), read within the read timeout (408), and only while this request holds one of the reader slots
 * (503). A body without a declared length reserves its bytes of the in-flight budget as they come (503 when out).
 * Nothing is read before the handler asks, so a request refused by its headers leaves its body unread.
 */
final class GuardedBody extends ServletInputStream {
    /** Budget reserved at a time for a body of unknown length. */
    private static final long STEP = 64 * 1024;

    private final ServletInputStream in;
    private final InFlightBodies bodies;
    private final long limit;
    private final long declared;
    private final Utf8Check utf8 = new Utf8Check();
    private long reservedBytes;
    private long read;
    private long deadline;
    private boolean reading;
    private boolean finished;
    private boolean atEnd;

    /** A body of {@code declared} bytes (-1: unknown) whose declared bytes the caller reserved already. */
    GuardedBody(ServletInputStream in, InFlightBodies bodies, long limit, long declared) {
        this.in = in;
        this.bodies = bodies;
        this.limit = limit;
        this.declared = declared;
        this.reservedBytes = Math.max(0, declared);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (finished) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        startReading();
        int n;
        try {
            n = in.read(b, off, len);
        } catch (IOException e) {
            end();
            if (System.nanoTime() - deadline >= 0 || timedOut(e)) {
                throw new RequestBodyException(408, "request: body not received within the read timeout");
            }
            throw e;
        }
        if (n < 0) {
            atEnd = true;
            end();
            if (!utf8.complete()) {
                throw notUtf8();
            }
            return -1;
        }
        read += n;
        if (read > limit) {
            end();
            throw RequestBodyException.tooLarge(limit);
        }
        if (!utf8.accept(b, off, n)) {
            end();
            throw notUtf8();
        }
        cover();
        if (System.nanoTime() - deadline > 0) {
            end();
            throw new RequestBodyException(408, "request: body not received within the read timeout");
        }
        return n;
    }

    /** Tomcat's read timeout, as it raises it or wrapped. */
    private static boolean timedOut(IOException e) {
        return e instanceof SocketTimeoutException || e.getCause() instanceof SocketTimeoutException;
    }

    /** A declared length is read into one array of that size, not through InputStream's 8 KB steps. */
    @Override
    public byte[] readAllBytes() throws IOException {
        if (declared < 0 || declared > Integer.MAX_VALUE - 8 || read > 0) {
            return super.readAllBytes();
        }
        byte[] all = new byte[(int) declared];
        int at = 0;
        while (at < all.length) {
            int n = read(all, at, all.length - at);
            if (n < 0) {
                return java.util.Arrays.copyOf(all, at);
            }
            at += n;
        }
        if (read() >= 0) {
            throw RequestBodyException.tooLarge(declared);
        }
        return all;
    }

    private static RequestBodyException notUtf8() {
        return new RequestBodyException(400, "request: body is not valid UTF-8");
    }

    /** The first read takes a reader slot and starts the clock. */
    private void startReading() {
        if (reading) {
            return;
        }
        if (!bodies.startReading()) {
            finished = true;
            throw RequestBodyException.noRoom();
        }
        reading = true;
        deadline = System.nanoTime() + bodies.readTimeoutNanos();
    }

    /** Reserves budget for the bytes read so far, when they are beyond what the declared length reserved. */
    private void cover() {
        while (read > reservedBytes) {
            if (!bodies.reserve(STEP)) {
                end();
                throw RequestBodyException.noRoom();
            }
            reservedBytes += STEP;
        }
    }

    /** Gives the reader slot back; no more is read. */
    private void end() {
        finished = true;
        if (reading) {
            reading = false;
            bodies.stopReading();
        }
    }

    /** At the end of the request: the slot, if still held, and every byte reserved. */
    void release() {
        end();
        bodies.release(reservedBytes);
        reservedBytes = 0;
    }

    /** Whether the whole body has been read: its connection can carry the next request. */
    boolean readWhole() {
        return atEnd || declared >= 0 && read == declared;
    }

    @Override
    public boolean isFinished() {
        return finished;
    }

    @Override
    public boolean isReady() {
        return true;
    }

    @Override
    public void setReadListener(ReadListener listener) {
        throw new UnsupportedOperationException("request bodies are read blocking, under the read timeout");
    }
}
