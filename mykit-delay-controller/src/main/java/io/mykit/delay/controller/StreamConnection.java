package io.mykit.delay.controller;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mykit.delay.common.error.DelayException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.dispatch.pull.Stream;
import io.mykit.delay.queue.dispatch.pull.StreamOutlet;
import io.mykit.delay.queue.service.DelayQueueService;
import io.mykit.delay.queue.service.FinishReport;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketSession;

/**
 * One consumer's stream connection: writes the stream's jobs as {@code jobs} frames, answers the consumer's frames
 * ({@code finish}, {@code release}, {@code touch}, {@code bury}, {@code credit}, {@code ping}), and ends the stream
 * when the connection ends, whichever side ends it. Only jobs the stream holds can be ended through it.
 */
final class StreamConnection implements StreamOutlet {
    /** A slow consumer: a frame not taken within the send timeout, or too many bytes waiting for it. */
    static final CloseStatus SLOW = new CloseStatus(4429, "slow consumer");
    /** A consumer that sent nothing within the idle timeout. */
    static final CloseStatus IDLE = new CloseStatus(4408, "idle");

    static final String NOT_HELD = "not held by this stream";

    private static final Logger log = LoggerFactory.getLogger(StreamConnection.class);

    private final WebSocketSession session;
    private final StreamOutbox outbox;
    private final StreamRequest request;
    private final DelayQueueService queue;
    private final ObjectMapper mapper;
    private final StreamSettings settings;
    private final TenantEvents events;
    private final LongSupplier clock;
    private final Executor closer;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final AtomicBoolean ended = new AtomicBoolean();

    private volatile Stream stream;
    private volatile long lastReceived;
    private volatile long lastSent;

    StreamConnection(
            WebSocketSession session,
            StreamOutbox outbox,
            StreamRequest request,
            DelayQueueService queue,
            ObjectMapper mapper,
            StreamSettings settings,
            TenantEvents events,
            LongSupplier clock,
            Executor closer) {
        this.session = session;
        this.outbox = outbox;
        this.request = request;
        this.queue = queue;
        this.mapper = mapper;
        this.settings = settings;
        this.events = events;
        this.clock = clock;
        this.closer = closer;
        this.lastReceived = clock.getAsLong();
        this.lastSent = lastReceived;
    }

    /** Opens the stream: its first look runs at once. */
    void open() {
        stream = queue.openStream(request.topics(), request.credit(), request.ttrMs(), this);
        if (closing.get()) {
            // closed before the stream was known: end it here
            end();
        }
    }

    @Override
    public boolean jobs(List<Job> jobs) {
        ObjectNode frame = mapper.createObjectNode().put("type", "jobs");
        ArrayNode shown = frame.putArray("jobs");
        jobs.forEach(job -> shown.addPOJO(request.caller().shown(job)));
        if (!send(frame)) {
            return false;
        }
        if (request.caller().scoped()) {
            events.pulled(request.caller().tenant().name(), jobs.size());
        }
        return true;
    }

    @Override
    public void stopping() {
        close(CloseStatus.GOING_AWAY);
    }

    /** The heartbeat, the idle and send timers, and held jobs past their ttr; run every {@code tickMs}. */
    void tick() {
        if (closing.get()) {
            return;
        }
        long now = clock.getAsLong();
        if (outbox.overflowed() || outbox.blockedMs() > settings.sendTimeoutMs()) {
            close(SLOW);
        } else if (now - lastReceived > settings.idleTimeoutMs()) {
            close(IDLE);
        } else {
            Stream open = stream;
            if (open != null) {
                open.expire();
            }
            if (now - lastSent >= settings.heartbeatMs()) {
                send(mapper.createObjectNode().put("type", "ping"));
            }
        }
    }

    /** Whether the caller lost its right to the stream's topics (a reload took its token out or moved a topic). */
    boolean revoked() {
        return !request.allowed().getAsBoolean();
    }

    /** One frame of the consumer. */
    void received(String text) {
        lastReceived = clock.getAsLong();
        JsonNode frame;
        try {
            frame = mapper.readTree(text);
        } catch (JsonProcessingException e) {
            error("not a JSON object");
            return;
        }
        String type = frame == null ? null : frame.path("type").textValue();
        if (frame == null || !frame.isObject() || type == null) {
            error("a frame is a JSON object with a \"type\"");
            return;
        }
        Stream open = stream;
        if (open == null) {
            error("the stream is not open yet");
            return;
        }
        switch (type) {
            case "ping" -> send(mapper.createObjectNode().put("type", "pong"));
            case "credit" -> credit(open, frame);
            case "finish" -> finish(open, frame);
            case "release", "touch", "bury" -> one(open, type, frame);
            default -> error("unknown frame type \"" + type + "\"");
        }
    }

    private void credit(Stream open, JsonNode frame) {
        JsonNode add = frame.get("add");
        if (add == null || !add.isInt() || add.intValue() < 1) {
            error("credit: \"add\" must be a whole number >= 1");
            return;
        }
        open.addCredit(add.intValue(), settings.maxCredit());
    }

    private void finish(Stream open, JsonNode frame) {
        JsonNode ids = frame.get("ids");
        if (ids == null || !ids.isArray() || ids.isEmpty() || ids.size() > settings.maxIds()) {
            error("finish: \"ids\" must hold 1.." + settings.maxIds() + " job ids");
            return;
        }
        List<String> given = new ArrayList<>();
        for (JsonNode id : ids) {
            if (!id.isTextual()) {
                error("finish: \"ids\" must hold job ids (strings)");
                return;
            }
            if (!given.contains(id.textValue())) {
                given.add(id.textValue());
            }
        }
        Map<String, String> refused = new LinkedHashMap<>();
        Map<String, String> storedOf = new LinkedHashMap<>();
        List<Job> heldJobs = new ArrayList<>();
        for (String id : given) {
            Job job = heldJob(open, id);
            if (job == null) {
                refused.put(id, NOT_HELD);
            } else {
                storedOf.put(id, job.getId());
                heldJobs.add(job);
            }
        }
        List<String> done = new ArrayList<>();
        if (!storedOf.isEmpty()) {
            FinishReport report;
            try {
                report = queue.finishAll(new ArrayList<>(storedOf.values()));
            } catch (RuntimeException e) {
                error("finish: " + request.caller().shown(e).getMessage() + "; nothing was finished");
                return;
            }
            storedOf.forEach((id, stored) -> {
                if (report.finished().contains(stored)) {
                    done.add(id);
                } else {
                    refused.put(id, shownMessage(report.refused().getOrDefault(stored, "not finished")));
                }
            });
        }
        answer("finish", done, refused, List.of());
        // after the answer, so that it comes before the jobs the freed credit brings; a held job refused was not
        // reserved any more (its ttr ran out): the stream does not hold it either
        open.ended(heldJobs);
    }

    /** A frame naming one job: release (a try counted, dead when out of tries), touch, or bury. */
    private void one(Stream open, String action, JsonNode frame) {
        JsonNode idNode = frame.get("id");
        if (idNode == null || !idNode.isTextual()) {
            error(action + ": \"id\" must be a job id");
            return;
        }
        String field = action.equals("release") ? "delay" : action.equals("touch") ? "ttr" : "reason";
        JsonNode extra = frame.get(field);
        boolean text = field.equals("reason");
        if (extra != null && !extra.isNull() && !(text ? extra.isTextual() : extra.canConvertToExactIntegral())) {
            error(action + ": \"" + field + "\" must be " + (text ? "a string" : "a number of ms"));
            return;
        }
        String id = idNode.textValue();
        Job job = heldJob(open, id);
        if (job == null) {
            answer(action, List.of(), Map.of(id, NOT_HELD), List.of());
            return;
        }
        Long number = extra == null || extra.isNull() || text ? null : extra.longValue();
        String stored = job.getId();
        List<String> dead = new ArrayList<>();
        try {
            switch (action) {
                case "release" -> {
                    if (queue.release(stored, number)) {
                        dead.add(id);
                    }
                }
                case "touch" -> {
                    long ttr = queue.touchTtr(number);
                    queue.touch(stored, ttr);
                    open.touched(stored, ttr);
                }
                default -> {
                    queue.bury(job);
                    log.info(
                            "job {} buried by its stream consumer: {}",
                            stored,
                            extra == null || extra.isNull() ? "(no reason given)" : extra.textValue());
                }
            }
        } catch (RuntimeException e) {
            if (e instanceof DelayException delay && delay.httpStatus() >= 500) {
                error(action + ": " + e.getMessage() + "; nothing was done");
                return;
            }
            answer(action, List.of(), Map.of(id, request.caller().shown(e).getMessage()), List.of());
            if (e instanceof DelayException delay && delay.httpStatus() != 400) {
                // not reserved any more (its ttr ran out): the stream does not hold it either
                open.ended(List.of(job));
            }
            return;
        }
        answer(action, List.of(id), Map.of(), dead);
        if (!action.equals("touch")) {
            // after the answer, so that it comes before the jobs the freed credit brings
            open.ended(List.of(job));
        }
    }

    /** The held job the consumer names {@code id} (its stored id: {@link Job#getId}); null when it holds none. */
    private Job heldJob(Stream open, String id) {
        Job job = open.held(request.caller().stored(id));
        if (job == null && request.caller().namespaced()) {
            // a job of the caller's topics stored outside its namespace is shown by its plain id
            job = open.held(id);
        }
        return job;
    }

    private String shownMessage(String message) {
        Caller caller = request.caller();
        return caller.namespaced() ? message.replace(caller.namespace(), "") : message;
    }

    private void answer(String action, List<String> ids, Map<String, String> refused, List<String> dead) {
        ObjectNode frame = mapper.createObjectNode().put("type", "ended").put("action", action);
        ArrayNode done = frame.putArray("ids");
        ids.forEach(done::add);
        ObjectNode refusals = frame.putObject("refused");
        refused.forEach(refusals::put);
        ArrayNode buried = frame.putArray("dead");
        dead.forEach(buried::add);
        send(frame);
    }

    private void error(String message) {
        send(mapper.createObjectNode().put("type", "error").put("message", message));
    }

    private boolean send(ObjectNode frame) {
        if (closing.get()) {
            return false;
        }
        String text;
        try {
            text = mapper.writeValueAsString(frame);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        if (!outbox.send(text)) {
            close(SLOW);
            return false;
        }
        lastSent = clock.getAsLong();
        return true;
    }

    /** Closes the connection with {@code status}; the stream ends at once, its held jobs back in their lists. */
    void close(CloseStatus status) {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        // the jobs first: a close frame to a consumer that does not read waits for the container's send timeout
        end();
        // and the close frame off the caller's thread: the stream timer ticks every other stream meanwhile
        try {
            closer.execute(() -> sendClose(status));
        } catch (RejectedExecutionException e) {
            sendClose(status);
        }
    }

    private void sendClose(CloseStatus status) {
        try {
            session.close(status);
        } catch (IOException | RuntimeException e) {
            log.debug("stream close not sent: {}", e.toString());
        }
    }

    /** The connection ended (whichever side ended it): the stream ends, and its slots are free. Idempotent. */
    void end() {
        closing.set(true);
        Stream open = stream;
        if (open == null) {
            // open() ends it once it is known
            return;
        }
        if (ended.compareAndSet(false, true)) {
            try {
                open.close();
            } finally {
                request.slots().run();
            }
        }
    }
}
