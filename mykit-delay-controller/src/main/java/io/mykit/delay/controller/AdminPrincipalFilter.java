package io.mykit.delay.controller;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.Principal;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Gives a caller {@link AdminGuard} allows a user principal, the only authority Spring Boot's actuator knows: with
 * {@code management.endpoint.health.show-details: when-authorized} health details (addresses, disk paths, driver
 * errors) are shown to the admin alone, while everyone keeps the overall status and its HTTP code.
 */
public class AdminPrincipalFilter extends OncePerRequestFilter {
    private static final Principal ADMIN = () -> "mykit-delay-admin";

    private final AdminGuard guard;

    public AdminPrincipalFilter(AdminGuard guard) {
        this.guard = guard;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!guard.allows(request)) {
            chain.doFilter(request, response);
            return;
        }
        chain.doFilter(
                new HttpServletRequestWrapper(request) {
                    @Override
                    public Principal getUserPrincipal() {
                        return ADMIN;
                    }
                },
                response);
    }
}
