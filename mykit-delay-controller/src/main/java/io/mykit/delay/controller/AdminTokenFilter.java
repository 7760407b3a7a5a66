package io.mykit.delay.controller;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Guards the admin routes (/reStore*, /reStoreJob, /clearAll, and changes to dead letters) with the configured
 * token, given as {@code Authorization: Bearer <token>} or {@code X-Admin-Token: <token>}; 401 otherwise.
 * Without a configured token the routes are open (the embedded default; a warning is logged at start).
 */
public class AdminTokenFilter extends OncePerRequestFilter {
    private final byte[] token;
    private final ObjectMapper mapper;

    /** {@code token} null or blank: no protection. */
    public AdminTokenFilter(String token, ObjectMapper mapper) {
        this.token = token == null || token.isBlank() ? null : token.getBytes(StandardCharsets.UTF_8);
        this.mapper = mapper;
    }

    static boolean isAdminRoute(String method, String path) {
        return path.startsWith("/reStore") || path.equals("/clearAll")
                || (path.startsWith("/dead/") && !"GET".equals(method));
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return token == null || !isAdminRoute(request.getMethod(), request.getRequestURI());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (presented(request) != null
                && MessageDigest.isEqual(token, presented(request).getBytes(StandardCharsets.UTF_8))) {
            chain.doFilter(request, response);
            return;
        }
        response.setStatus(401);
        response.setHeader("WWW-Authenticate", "Bearer realm=\"mykit-delay admin\"");
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        mapper.writeValue(response.getOutputStream(), ApiResponse.error(401,
                "admin token required: Authorization: Bearer <token> or X-Admin-Token", "Authorization"));
    }

    private static String presented(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return header.substring(7).trim();
        }
        return request.getHeader("X-Admin-Token");
    }
}
