package io.mykit.delay.controller;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Checks a request body before anything parses it: at most {@code maxBytes} (413, chunked uploads included), strictly
 * valid UTF-8 (400; a lenient decoder would turn overlong forms into other characters), and no wildcard Content-Type
 * (415). The checked bytes are handed on, so the body is read once from the network.
 */
public class RequestGuardFilter extends OncePerRequestFilter {
    private final long maxBytes;
    private final ObjectMapper mapper;

    public RequestGuardFilter(long maxBytes, ObjectMapper mapper) {
        this.maxBytes = maxBytes;
        this.mapper = mapper;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String contentType = request.getContentType();
        if (contentType != null && contentType.contains("*")) {
            reject(response, 415, "request: Content-Type must be application/json");
            return;
        }
        if (request.getContentLengthLong() > maxBytes) {
            reject(response, 413, "request: larger than " + maxBytes + " bytes");
            return;
        }
        if (request.getContentLengthLong() == 0 || "GET".equals(request.getMethod())) {
            chain.doFilter(request, response);
            return;
        }
        byte[] body = readAtMost(request.getInputStream(), request.getContentLengthLong(), maxBytes + 1);
        if (body.length > maxBytes) {
            reject(response, 413, "request: larger than " + maxBytes + " bytes");
            return;
        }
        if (!isUtf8(body)) {
            reject(response, 400, "request: body is not valid UTF-8");
            return;
        }
        chain.doFilter(new CachedBodyRequest(request, body), response);
    }

    /**
     * A declared length (checked against the limit already) sizes the one array read into; without one (chunked), at
     * most {@code limit} bytes: reading up to the limit for every request would cost a buffer and a copy per push.
     */
    private static byte[] readAtMost(InputStream in, long declared, long limit) throws IOException {
        return in.readNBytes((int) Math.min(declared >= 0 ? declared : limit, Integer.MAX_VALUE - 8));
    }

    /** Strict UTF-8: ASCII bodies, the common case, are checked without a decoder and its output buffer. */
    private static boolean isUtf8(byte[] body) {
        boolean ascii = true;
        for (byte b : body) {
            if (b < 0) {
                ascii = false;
                break;
            }
        }
        if (ascii) {
            return true;
        }
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private void reject(HttpServletResponse response, int status, String message) throws IOException {
        response.setStatus(status);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        mapper.writeValue(response.getOutputStream(), ApiResponse.error(status, message, "request"));
    }

    /** The request with its already-read body. */
    private static final class CachedBodyRequest extends HttpServletRequestWrapper {
        private final byte[] body;

        CachedBodyRequest(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }

                @Override
                public byte[] readAllBytes() {
                    // what is left, in one copy: InputStream's default reads through an 8 KB buffer first
                    return in.readAllBytes();
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("the body is already read");
                }
            };
        }
    }
}
