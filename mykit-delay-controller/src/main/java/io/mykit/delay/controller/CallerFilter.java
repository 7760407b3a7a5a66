package io.mykit.delay.controller;

import io.mykit.delay.common.tenant.LiveTenants;
import io.mykit.delay.common.tenant.TenantDirectory;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.function.BooleanSupplier;
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
        return resolve(directory, bearer(request), request.getHeader("X-Admin-Token"), events);
    }

    private static Caller resolve(TenantDirectory directory, String token, String adminHeader, TenantEvents events) {
        if (token == null) {
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

    /**
     * A test of whether the request's credentials, read now, still make it the tenant {@code caller}, allowed
     * {@code topic}, in the directory then in force: false once a reload took its token out or moved the topic away. It
     * keeps no reference to the request, which the container recycles once answered.
     */
    static BooleanSupplier stillHolds(LiveTenants tenants, HttpServletRequest request, Caller caller, String topic) {
        String token = bearer(request);
        String adminHeader = request.getHeader("X-Admin-Token");
        String tenant = caller.tenant().name();
        return () -> {
            Caller now = resolve(tenants.directory(), token, adminHeader, TenantEvents.NONE);
            return now.scoped() && now.tenant().name().equals(tenant) && now.allows(topic);
        };
    }

    private static String bearer(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return header.substring(7).trim();
        }
        return null;
    }
}
