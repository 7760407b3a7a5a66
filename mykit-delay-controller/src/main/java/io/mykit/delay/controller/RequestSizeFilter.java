package io.mykit.delay.controller;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/** Refuses an oversized request before its body is read (413), so a huge upload cannot tie up memory. */
public class RequestSizeFilter extends OncePerRequestFilter {
    private final long maxBytes;
    private final ObjectMapper mapper;

    public RequestSizeFilter(long maxBytes, ObjectMapper mapper) {
        this.maxBytes = maxBytes;
        this.mapper = mapper;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > maxBytes) {
            response.setStatus(413);
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            mapper.writeValue(response.getOutputStream(),
                    ApiResponse.error(413, "request: larger than " + maxBytes + " bytes", "request"));
            return;
        }
        chain.doFilter(request, response);
    }
}
