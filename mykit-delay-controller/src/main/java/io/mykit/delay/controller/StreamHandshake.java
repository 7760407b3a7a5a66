package io.mykit.delay.controller;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.common.error.InvalidJobException;
import io.mykit.delay.common.error.TooManyPollsException;
import io.mykit.delay.common.tenant.LiveTenants;
import io.mykit.delay.queue.service.DelayQueueService;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.http.server.ServletServerHttpResponse;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.server.HandshakeInterceptor;

/**
 * Admits a {@code GET /stream} handshake, or refuses it as plain HTTP with the usual JSON error body, in the order of
 * the pull routes: 401 no or unknown token; 403 a browser's call from another origin or by an unknown host name (the
 * {@link BrowserGuard} rules: a WebSocket handshake changes state); 400 bad parameters; 403 a topic not the caller's;
 * 429 too many streams on the node or of the tenant. Slots taken for a handshake that does not upgrade are given back.
 */
public class StreamHandshake implements HandshakeInterceptor {
    private final DelayQueueService queue;
    private final TenantLimits limits;
    private final BrowserGuard browsers;
    private final LiveTenants tenants;
    private final ObjectMapper mapper;
    private final StreamSettings settings;
    private final StreamHandler streams;

    public StreamHandshake(
            DelayQueueService queue,
            TenantLimits limits,
            BrowserGuard browsers,
            LiveTenants tenants,
            ObjectMapper mapper,
            StreamSettings settings,
            StreamHandler streams) {
        this.queue = queue;
        this.limits = limits;
        this.browsers = browsers;
        this.tenants = tenants;
        this.mapper = mapper;
        this.settings = settings;
        this.streams = streams;
    }

    @Override
    public boolean beforeHandshake(
            ServerHttpRequest request,
            ServerHttpResponse response,
            WebSocketHandler handler,
            Map<String, Object> attributes)
            throws IOException {
        HttpServletRequest http = ((ServletServerHttpRequest) request).getServletRequest();
        Caller caller = Caller.of(http);
        try {
            StreamRequest admitted = admit(http, caller);
            attributes.put(StreamRequest.ATTRIBUTE, admitted);
            http.setAttribute(StreamRequest.ATTRIBUTE, admitted);
            return true;
        } catch (RuntimeException e) {
            refuse(response, caller.shown(e));
            return false;
        }
    }

    private StreamRequest admit(HttpServletRequest http, Caller caller) {
        caller.requireKnown();
        browsers.check(http, true, false);
        List<String> topics = topics(http.getParameter("topics"));
        int credit = number(http, "credit", settings.defaultCredit(), Integer::parseInt);
        if (credit < 1 || credit > settings.maxCredit()) {
            throw new InvalidJobException("credit", "must be 1.." + settings.maxCredit());
        }
        Long ttr = number(http, "ttr", null, Long::valueOf);
        // the caller's right first, as on the pull routes: a foreign topic is 403 whatever it is routed to
        topics.forEach(caller::requireTopic);
        long ttrMs = queue.checkStream(topics, ttr);
        Runnable node = streams.takeSlot();
        Runnable tenant;
        try {
            tenant = limits.takeStream(caller, settings.maxStreams());
        } catch (RuntimeException e) {
            node.run();
            throw e;
        }
        AtomicBoolean given = new AtomicBoolean();
        return new StreamRequest(caller, topics, credit, ttrMs, allowed(http, caller, topics), () -> {
            if (given.compareAndSet(false, true)) {
                tenant.run();
                node.run();
            }
        });
    }

    private List<String> topics(String given) {
        LinkedHashSet<String> topics = new LinkedHashSet<>();
        if (given != null) {
            for (String topic : given.split(",", -1)) {
                topics.add(topic.trim());
            }
        }
        if (topics.isEmpty() || topics.size() > settings.maxTopics()) {
            throw new InvalidJobException(
                    "topics", "must name 1.." + settings.maxTopics() + " pull topics, comma-separated");
        }
        return new ArrayList<>(topics);
    }

    private static <T> T number(HttpServletRequest http, String name, T absent, Function<String, T> parse) {
        String value = http.getParameter(name);
        if (value == null) {
            return absent;
        }
        try {
            return parse.apply(value.trim());
        } catch (NumberFormatException e) {
            throw new InvalidJobException(name, "must be a number");
        }
    }

    /** Whether the caller still holds every topic of the stream, by the directory in force when asked. */
    private BooleanSupplier allowed(HttpServletRequest http, Caller caller, List<String> topics) {
        if (!caller.scoped()) {
            return () -> true;
        }
        List<BooleanSupplier> each = topics.stream()
                .map(topic -> CallerFilter.stillHolds(tenants, http, caller, topic))
                .toList();
        return () -> each.stream().allMatch(BooleanSupplier::getAsBoolean);
    }

    private void refuse(ServerHttpResponse response, RuntimeException failure) throws IOException {
        ResponseEntity<ApiResponse<Void>> error = ApiExceptionHandler.forFailure(failure);
        response.setStatusCode(error.getStatusCode());
        response.getHeaders().putAll(error.getHeaders());
        response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
        mapper.writeValue(response.getBody(), error.getBody());
    }

    @Override
    public void afterHandshake(
            ServerHttpRequest request, ServerHttpResponse response, WebSocketHandler handler, Exception failure) {
        HttpServletRequest http = ((ServletServerHttpRequest) request).getServletRequest();
        int status = ((ServletServerHttpResponse) response).getServletResponse().getStatus();
        if (http.getAttribute(StreamRequest.ATTRIBUTE) instanceof StreamRequest admitted
                && (failure != null || status != HttpStatus.SWITCHING_PROTOCOLS.value())) {
            // the upgrade did not happen: no connection will give the slots back
            admitted.slots().run();
        }
    }

    static TooManyPollsException tooManyStreams(int max) {
        return new TooManyPollsException(
                "too many streams open (stream.max-streams = " + max + "): try again in a moment");
    }
}
