package io.mykit.delay.controller;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * No page of the gateway may be framed by another (X-Frame-Options, CSP frame-ancestors), and its pages load scripts,
 * styles and data from the gateway alone. Swagger UI sets styles inline, so its pages allow inline styles.
 */
public class SecurityHeadersFilter extends OncePerRequestFilter {
    private static final String POLICY = "default-src 'self'; img-src 'self' data:; object-src 'none'; "
            + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    private static final String SWAGGER_UI_POLICY = POLICY + "; style-src 'self' 'unsafe-inline'";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader(
                "Content-Security-Policy",
                request.getRequestURI().startsWith("/swagger-ui") ? SWAGGER_UI_POLICY : POLICY);
        chain.doFilter(request, response);
    }
}
