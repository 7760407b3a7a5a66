package io.mykit.delay.config;

import static io.mykit.delay.config.Checks.check;
import static io.mykit.delay.config.Checks.positive;

import java.time.Duration;
import java.util.List;

/** {@code mykit.delay.stream.*}: the WebSocket consumers of {@code GET /stream}. */
public class StreamProperties {
    /** Most streams open at once on this node, one more is refused 429; a tenant's share without max-streams. */
    private int maxStreams = 1_024;
    /** Most topics one stream may name. */
    private int maxTopics = 16;
    /** Most jobs a stream may hold unacknowledged (its credit, asked for or added). */
    private int maxCredit = 1_000;
    /** A stream that sent nothing for this long sends {"type":"ping"}. */
    private Duration heartbeat = Duration.ofSeconds(5);
    /** A consumer that sent no frame for this long is closed (4408); its held jobs go back. */
    private Duration idleTimeout = Duration.ofSeconds(15);
    /** A frame not taken by the consumer within this long closes the stream (4429); its held jobs go back. */
    private Duration sendTimeout = Duration.ofSeconds(10);
    /** Most bytes of frames waiting to be sent to one consumer; more close the stream (4429). */
    private int maxSendBufferBytes = 4 * 1024 * 1024;
    /** Largest frame a consumer may send; a larger one closes the stream (1009). */
    private int maxFrameBytes = 64 * 1024;

    public int getMaxStreams() {
        return maxStreams;
    }

    public void setMaxStreams(int maxStreams) {
        this.maxStreams = maxStreams;
    }

    public int getMaxTopics() {
        return maxTopics;
    }

    public void setMaxTopics(int maxTopics) {
        this.maxTopics = maxTopics;
    }

    public int getMaxCredit() {
        return maxCredit;
    }

    public void setMaxCredit(int maxCredit) {
        this.maxCredit = maxCredit;
    }

    public Duration getHeartbeat() {
        return heartbeat;
    }

    public void setHeartbeat(Duration heartbeat) {
        this.heartbeat = heartbeat;
    }

    public Duration getIdleTimeout() {
        return idleTimeout;
    }

    public void setIdleTimeout(Duration idleTimeout) {
        this.idleTimeout = idleTimeout;
    }

    public Duration getSendTimeout() {
        return sendTimeout;
    }

    public void setSendTimeout(Duration sendTimeout) {
        this.sendTimeout = sendTimeout;
    }

    public int getMaxSendBufferBytes() {
        return maxSendBufferBytes;
    }

    public void setMaxSendBufferBytes(int maxSendBufferBytes) {
        this.maxSendBufferBytes = maxSendBufferBytes;
    }

    public int getMaxFrameBytes() {
        return maxFrameBytes;
    }

    public void setMaxFrameBytes(int maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
    }

    void validate(List<String> errors) {
        check(errors, maxStreams >= 1, "mykit.delay.stream.max-streams must be >= 1");
        check(errors, maxTopics >= 1, "mykit.delay.stream.max-topics must be >= 1");
        check(errors, maxCredit >= 1, "mykit.delay.stream.max-credit must be >= 1");
        check(errors, positive(heartbeat), "mykit.delay.stream.heartbeat must be > 0");
        check(errors, positive(idleTimeout), "mykit.delay.stream.idle-timeout must be > 0");
        check(errors, positive(sendTimeout), "mykit.delay.stream.send-timeout must be > 0");
        check(errors, maxSendBufferBytes >= 1024, "mykit.delay.stream.max-send-buffer-bytes must be >= 1024");
        check(errors, maxFrameBytes >= 1024, "mykit.delay.stream.max-frame-bytes must be >= 1024");
    }
}
