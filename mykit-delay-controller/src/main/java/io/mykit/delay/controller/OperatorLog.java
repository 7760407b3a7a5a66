package io.mykit.delay.controller;

import io.mykit.delay.common.util.Buckets;
import io.mykit.delay.common.util.LogSafe;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.AsyncHandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Puts the job id and topic a request names into the MDC for every log line written while it is handled, and writes one
 * INFO line per admin call (allowed or refused) with what it named, who asked and the answer. Never a body. Registered
 * before {@link AdminGuard}, so a refused call is logged too.
 *
 * <p>Of the query, only the parameters admin routes take are written with their values; any other parameter is written
 * as {@code <redacted>}, name included: a token pasted into a URL may be a value ({@code ?token=s3cret}) or the whole
 * parameter ({@code ?s3cret}), and no list of secret-sounding names catches both.
 */
public class OperatorLog implements AsyncHandlerInterceptor {
    private static final Logger log = LoggerFactory.getLogger("io.mykit.delay.admin");
    private static final String STARTED = OperatorLog.class.getName() + ".started";
    /** The parameters of the admin routes: job ids and switches, nothing secret. */
    private static final Set<String> SHOWN_PARAMETERS = Set.of("jobId", "expire", "cancel");

    private final int buckets;

    public OperatorLog(int buckets) {
        this.buckets = buckets;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        request.setAttribute(STARTED, System.nanoTime());
        String jobId = jobId(request);
        if (jobId != null) {
            MDC.put("jobId", jobId);
        }
        String topic = pathVariable(request, "topic");
        if (topic != null) {
            MDC.put("topic", topic);
        }
        return true;
    }

    @Override
    public void afterCompletion(
            HttpServletRequest request, HttpServletResponse response, Object handler, Exception ex) {
        try {
            if (handler instanceof HandlerMethod method && AdminGuard.isAdmin(method)) {
                String jobId = jobId(request);
                String topic = pathVariable(request, "topic");
                Object started = request.getAttribute(STARTED);
                long ms = started instanceof Long nanos ? (System.nanoTime() - nanos) / 1_000_000 : -1;
                log.info(
                        "admin {} {}{} jobId={} topic={} bucket={} from={} status={} took={}ms",
                        request.getMethod(),
                        clean(request.getRequestURI()),
                        query(request.getQueryString()),
                        jobId == null ? "-" : jobId,
                        topic == null ? "-" : topic,
                        jobId == null ? "-" : Integer.toString(Buckets.of(jobId, buckets)),
                        caller(request),
                        response.getStatus(),
                        ms);
            }
        } finally {
            clear();
        }
    }

    @Override
    public void afterConcurrentHandlingStarted(
            HttpServletRequest request, HttpServletResponse response, Object handler) {
        // the request thread goes back to the pool: its MDC must not follow it to the next request
        clear();
    }

    private static void clear() {
        MDC.remove("jobId");
        MDC.remove("topic");
    }

    /** {@code ?jobId=x&<redacted>}: see the class comment. */
    static String query(String query) {
        if (query == null) {
            return "";
        }
        StringBuilder shown = new StringBuilder();
        for (String parameter : query.split("&", -1)) {
            int equals = parameter.indexOf('=');
            String name = equals < 0 ? parameter : parameter.substring(0, equals);
            shown.append(shown.isEmpty() ? '?' : '&')
                    .append(SHOWN_PARAMETERS.contains(name) ? clean(parameter) : "<redacted>");
        }
        return shown.toString();
    }

    /** The TCP peer, and the address a proxy said it forwarded for when that differs. */
    private static String caller(HttpServletRequest request) {
        String remote = request.getRemoteAddr();
        Object peer = request.getAttribute(SocketPeerValve.ATTRIBUTE);
        if (!(peer instanceof String address) || address.equals(remote)) {
            return remote;
        }
        return address + " (forwarded for " + remote + ")";
    }

    private static String jobId(HttpServletRequest request) {
        String jobId = request.getParameter("jobId");
        return jobId != null ? clean(jobId) : pathVariable(request, "id");
    }

    private static String pathVariable(HttpServletRequest request, String name) {
        Object variables = request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
        return variables instanceof Map<?, ?> map && map.get(name) instanceof String value ? clean(value) : null;
    }

    /**
     * Caller-chosen text as it may enter a log line: no line breaks, control characters or Unicode separators
     * ({@link LogSafe#unsafe}), at most 128 chars.
     */
    static String clean(String text) {
        String shown = text.length() > 128 ? text.substring(0, 128) + "..." : text;
        char[] chars = shown.toCharArray();
        for (int i = 0; i < chars.length; i++) {
            if (LogSafe.unsafe(chars[i])) {
                chars[i] = '?';
            }
        }
        return new String(chars);
    }
}
