package io.mykit.delay.controller;

import io.mykit.delay.common.tenant.LiveTenants;
import io.mykit.delay.common.tenant.TenantDirectory;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Resolves the {@link Caller} of every request once, before {@link DirectRouteFilter} and Spring MVC: the admin token
 * is the admin, a tenant's token that tenant, no token the tenant {@code default} when it is configured without one.
 * Anything else is kept as a refused caller; the data-plane routes answer it 401, other routes (admin, health, the
 * console page, the API document) keep their own rules. With no tenant configured nothing is resolved.
 */
public class CallerFilter extends OncePerRequestFilter {
    private final LiveTenants tenants;
    private final TenantEvents events;

    public CallerFilter(LiveTenants tenants, TenantEvents events) {
        this.tenants = tenants;
        this.events = events;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        TenantDirectory directory = tenants.directory();
        if (directory.enabled()) {
            request.setAttribute(Caller.ATTRIBUTE, resolve(directory, request, events));
        }
        chain.doFilter(request, response);
    }

    static Caller resolve(TenantDirectory directory, HttpServletRequest request, TenantEvents events) {
        String token = bearer(request);
        if (token == null) {
            String adminHeader = request.getHeader("X-Admin-Token");
            if (adminHeader != null && directory.holderOf(adminHeader.trim()).admin()) {
                return Caller.ADMIN;
            }
            return directory
                    .tokenless()
                    .map(tenant -> Caller.tenant(tenant, events))
                    .orElseGet(() -> Caller.refused(TenantAccessException.tokenRequired()));
        }
        TenantDirectory.Holder holder = directory.holderOf(token);
        if (holder.admin()) {
            return Caller.ADMIN;
        }
        return holder.unknown()
                ? Caller.refused(TenantAccessException.unknownToken())
                : Caller.tenant(holder.tenant(), events);
    }

    private static String bearer(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return header.substring(7).trim();
        }
        return null;
    }
}
