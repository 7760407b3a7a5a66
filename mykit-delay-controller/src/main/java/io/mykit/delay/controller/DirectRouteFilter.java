package io.mykit.delay.controller;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.mykit.delay.common.util.PlainNames;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.slf4j.MDC;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * The three calls a producer and a pull consumer make per job, {@code POST /push}, {@code GET /get/{topic}} and
 * {@code GET /finish?jobId=}, and the two a batch consumer makes per batch, {@code GET /get/{topic}/batch?count=} and
 * {@code POST /finish/batch}, answered here instead of through Spring MVC's dispatch (handler lookup, argument
 * resolvers, interceptors, return-value handlers), the largest share of the gateway's CPU per job otherwise. Only a
 * plainly spelled call is taken: any other spelling, an odd parameter or another method goes on to Spring MVC and its
 * controllers, which stay the reference and answer it the same way. None of these routes is an admin route. The
 * controllers' own methods do the work here too, so the answers are theirs, errors included; the {@link BrowserGuard}
 * that Spring MVC would run is called here.
 */
public class DirectRouteFilter extends OncePerRequestFilter {
    private static final int MAX_TOPIC_IN_PATH = 200;
    private static final String GET_PREFIX = "/get/";
    private static final String BATCH_SUFFIX = "/batch";

    private final JobController jobs;
    private final PullController pulls;
    private final ObjectWriter responseWriter;
    private final BrowserGuard browsers;
    private final ApiExceptionHandler errors = new ApiExceptionHandler();

    /** The controllers answer; this filter only routes to them and renders their errors as their advice would. */
    public DirectRouteFilter(JobController jobs, PullController pulls, ObjectMapper mapper, BrowserGuard browsers) {
        this.jobs = jobs;
        this.pulls = pulls;
        this.browsers = browsers;
        this.responseWriter = mapper.writerFor(ApiResponse.class);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!request.getContextPath().isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        String uri = request.getRequestURI();
        String method = request.getMethod();
        boolean taken;
        if ("POST".equals(method) && "/push".equals(uri)) {
            taken = push(request, response);
        } else if ("GET".equals(method) && "/finish".equals(uri)) {
            taken = finish(request, response);
        } else if ("POST".equals(method) && "/finish/batch".equals(uri)) {
            taken = finishBatch(request, response);
        } else if ("GET".equals(method)
                && uri.startsWith(GET_PREFIX)
                && uri.endsWith(BATCH_SUFFIX)
                && PlainNames.plain(
                        uri, GET_PREFIX.length(), uri.length() - BATCH_SUFFIX.length(), MAX_TOPIC_IN_PATH, false)) {
            taken = getBatch(
                    uri.substring(GET_PREFIX.length(), uri.length() - BATCH_SUFFIX.length()), request, response);
        } else if ("GET".equals(method)
                && uri.startsWith(GET_PREFIX)
                && PlainNames.plain(uri, GET_PREFIX.length(), uri.length(), MAX_TOPIC_IN_PATH, false)) {
            taken = get(uri.substring(GET_PREFIX.length()), request, response);
        } else {
            taken = false;
        }
        if (!taken) {
            chain.doFilter(request, response);
        }
    }

    private boolean push(HttpServletRequest request, HttpServletResponse response) throws IOException {
        MediaType type = contentType(request);
        if (type == null || !MediaType.APPLICATION_JSON.isCompatibleWith(type) || type.isWildcardSubtype()) {
            // missing or other content types: Spring MVC's 415
            return false;
        }
        route(request, "/push");
        try {
            Caller.of(request).requireKnown();
            browsers.check(request, true, false);
            jobs.push(request, response);
        } catch (HttpMessageNotReadableException e) {
            write(response, errors.unreadable(e));
        } catch (RuntimeException e) {
            write(response, ApiExceptionHandler.forFailure(e));
        }
        return true;
    }

    private boolean finish(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String[] ids = request.getParameterValues("jobId");
        if (ids == null || ids.length != 1 || request.getParameterMap().size() != 1) {
            return false;
        }
        route(request, "/finish");
        MDC.put("jobId", ids[0]);
        try {
            Caller.of(request).requireKnown();
            browsers.check(request, true, true);
            write(response, pulls.finish(ids[0], request));
        } catch (RuntimeException e) {
            write(response, ApiExceptionHandler.forFailure(e));
        } finally {
            MDC.remove("jobId");
        }
        return true;
    }

    private boolean get(String topic, HttpServletRequest request, HttpServletResponse response) throws IOException {
        Long ttr;
        Long timeout;
        try {
            ttr = optionalLong(request, "ttr");
            timeout = optionalLong(request, "timeout");
        } catch (NumberFormatException unusual) {
            // Spring MVC answers a bad number with its own 400
            return false;
        }
        if (!onlyParameters(request, "ttr", "timeout")) {
            return false;
        }
        route(request, "/get/{topic}");
        MDC.put("topic", topic);
        try {
            Caller.of(request).requireKnown();
            browsers.check(request, true, true);
            pulls.get(topic, ttr, timeout, request, response);
        } catch (RuntimeException e) {
            write(response, ApiExceptionHandler.forFailure(e));
        } finally {
            MDC.remove("topic");
        }
        return true;
    }

    private boolean getBatch(String topic, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        Long count;
        Long ttr;
        Long timeout;
        try {
            count = optionalLong(request, "count");
            ttr = optionalLong(request, "ttr");
            timeout = optionalLong(request, "timeout");
        } catch (NumberFormatException unusual) {
            return false;
        }
        if (count == null || count != count.intValue() || !onlyParameters(request, "count", "ttr", "timeout")) {
            // missing or beyond an int: Spring MVC's own 400
            return false;
        }
        route(request, "/get/{topic}/batch");
        MDC.put("topic", topic);
        try {
            Caller.of(request).requireKnown();
            browsers.check(request, true, true);
            pulls.getBatch(topic, count.intValue(), ttr, timeout, request, response);
        } catch (RuntimeException e) {
            write(response, ApiExceptionHandler.forFailure(e));
        } finally {
            MDC.remove("topic");
        }
        return true;
    }

    private boolean finishBatch(HttpServletRequest request, HttpServletResponse response) throws IOException {
        MediaType type = contentType(request);
        if (type == null
                || !MediaType.APPLICATION_JSON.isCompatibleWith(type)
                || type.isWildcardSubtype()
                || !request.getParameterMap().isEmpty()) {
            return false;
        }
        route(request, "/finish/batch");
        try {
            Caller.of(request).requireKnown();
            browsers.check(request, true, false);
            write(response, pulls.finishBatch(pulls.readIds(request), request));
        } catch (HttpMessageNotReadableException e) {
            write(response, errors.unreadable(e));
        } catch (RuntimeException e) {
            write(response, ApiExceptionHandler.forFailure(e));
        }
        return true;
    }

    /** Whether the request names no parameter but these. */
    private static boolean onlyParameters(HttpServletRequest request, String... allowed) {
        List<String> names = List.of(allowed);
        for (String name : request.getParameterMap().keySet()) {
            if (!names.contains(name)) {
                return false;
            }
        }
        return true;
    }

    /** Absent is null; anything but one plain number is left to Spring MVC (NumberFormatException). */
    private static Long optionalLong(HttpServletRequest request, String name) {
        String[] values = request.getParameterValues(name);
        if (values == null) {
            return null;
        }
        if (values.length != 1) {
            throw new NumberFormatException(name + " given " + values.length + " times");
        }
        return Long.parseLong(values[0]);
    }

    private static MediaType contentType(HttpServletRequest request) {
        String value = request.getContentType();
        if (value == null) {
            return null;
        }
        try {
            return MediaType.parseMediaType(value);
        } catch (RuntimeException invalid) {
            return null;
        }
    }

    /** The route as Spring MVC would have named it in http.server.requests. */
    private static void route(HttpServletRequest request, String pattern) {
        ServerHttpObservationFilter.findObservationContext(request)
                .ifPresent(context -> context.setPathPattern(pattern));
    }

    private void write(HttpServletResponse response, ResponseEntity<ApiResponse<Void>> error) throws IOException {
        response.setStatus(error.getStatusCode().value());
        error.getHeaders().forEach((name, values) -> values.forEach(value -> response.addHeader(name, value)));
        write(response, error.getBody());
    }

    private void write(HttpServletResponse response, ApiResponse<?> body) throws IOException {
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        responseWriter.writeValue(response.getOutputStream(), body);
    }
}
