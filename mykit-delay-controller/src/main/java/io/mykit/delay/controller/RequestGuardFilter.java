package io.mykit.delay.controller;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Guards request bodies before anything reads one, from the headers alone: TRACE is refused (405, so no header is ever
 * echoed), a wildcard Content-Type too (415), a declared length over the route's limit (413, see {@link BodyLimits}) or
 * over what the in-flight budget has free (503 with Retry-After). The body itself is handed on unread, as a
 * {@link GuardedBody} that checks it while the handler reads it; a handler that refuses the caller first never reads
 * it.
 */
public class RequestGuardFilter extends OncePerRequestFilter {
    private final BodyLimits limits;
    private final InFlightBodies bodies;
    private final ObjectMapper mapper;

    public RequestGuardFilter(BodyLimits limits, InFlightBodies bodies, ObjectMapper mapper) {
        this.limits = limits;
        this.bodies = bodies;
        this.mapper = mapper;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if ("TRACE".equals(request.getMethod())) {
            response.setHeader(HttpHeaders.ALLOW, "GET, HEAD, POST, PUT, DELETE, OPTIONS");
            reject(response, 405, "method TRACE not allowed here", null);
            return;
        }
        String contentType = request.getContentType();
        if (contentType != null && contentType.contains("*")) {
            reject(response, 415, "request: Content-Type must be application/json", "request");
            return;
        }
        long limit = limits.of(request.getMethod(), path(request));
        long declared = request.getContentLengthLong();
        if (declared > limit) {
            reject(response, 413, RequestBodyException.tooLarge(limit).getMessage(), "request");
            return;
        }
        if (declared == 0 || declared < 0 && request.getHeader(HttpHeaders.TRANSFER_ENCODING) == null) {
            chain.doFilter(request, response);
            return;
        }
        if (declared > bodies.capacity()) {
            reject(
                    response,
                    413,
                    RequestBodyException.tooLarge(bodies.capacity()).getMessage(),
                    "request");
            return;
        }
        if (!bodies.reserve(Math.max(0, declared))) {
            response.setHeader(HttpHeaders.RETRY_AFTER, "1");
            reject(response, 503, RequestBodyException.noRoom().getMessage(), "request");
            return;
        }
        GuardedBody body = new GuardedBody(request.getInputStream(), bodies, limit, declared);
        try {
            chain.doFilter(new GuardedRequest(request, body), new ClosingResponse(response, body));
        } finally {
            body.release();
        }
    }

    /** The decoded, normalised path Tomcat mapped, without path parameters. */
    private static String path(HttpServletRequest request) {
        String info = request.getPathInfo();
        return info == null ? request.getServletPath() : request.getServletPath() + info;
    }

    private void reject(HttpServletResponse response, int status, String message, String field) throws IOException {
        response.setStatus(status);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        mapper.writeValue(response.getOutputStream(), ApiResponse.error(status, message, field));
    }

    /**
     * Says {@code Connection: close} when the answer starts before the body was read whole (a refused caller): the rest
     * is never read, so the connection cannot carry another request (see {@link UnreadBodyValve}).
     */
    private static final class ClosingResponse extends HttpServletResponseWrapper {
        private final GuardedBody body;

        ClosingResponse(HttpServletResponse response, GuardedBody body) {
            super(response);
            this.body = body;
        }

        private void beforeCommit() {
            if (!body.readWhole() && !isCommitted()) {
                setHeader(HttpHeaders.CONNECTION, "close");
            }
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            ServletOutputStream out = super.getOutputStream();
            return new ServletOutputStream() {
                @Override
                public void write(int b) throws IOException {
                    beforeCommit();
                    out.write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    beforeCommit();
                    out.write(b, off, len);
                }

                @Override
                public void flush() throws IOException {
                    beforeCommit();
                    out.flush();
                }

                @Override
                public void close() throws IOException {
                    beforeCommit();
                    out.close();
                }

                @Override
                public boolean isReady() {
                    return out.isReady();
                }

                @Override
                public void setWriteListener(WriteListener listener) {
                    out.setWriteListener(listener);
                }
            };
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            beforeCommit();
            return super.getWriter();
        }

        @Override
        public void flushBuffer() throws IOException {
            beforeCommit();
            super.flushBuffer();
        }

        @Override
        public void sendError(int status, String message) throws IOException {
            beforeCommit();
            super.sendError(status, message);
        }

        @Override
        public void sendError(int status) throws IOException {
            beforeCommit();
            super.sendError(status);
        }
    }

    /** The request with its body behind the guard. */
    private static final class GuardedRequest extends HttpServletRequestWrapper {
        private final GuardedBody body;

        GuardedRequest(HttpServletRequest request, GuardedBody body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            return body;
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        }
    }
}
