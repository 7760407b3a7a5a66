package io.mykit.delay.controller;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Keeps web pages off the data plane where it needs no token (no tenants, or the tokenless tenant {@code default}): a
 * browser on a machine that reaches the gateway sends what any page asks it to. Refused with 403, unless the request
 * carries a tenant's or the admin's token (a browser never adds one by itself): a call marked as made for a page of
 * another origin ({@link CrossOrigin}), one naming the gateway by a name it does not know ({@link AllowedHosts}), and a
 * browser's call that would change state by loading a page or by a GET ({@link StateChange}). HEAD never runs a GET
 * handler that changes state: 405. Runs as a Spring MVC interceptor and, for the routes {@link DirectRouteFilter}
 * takes, from that filter.
 */
public class BrowserGuard implements HandlerInterceptor {
    private final AdminGuard admin;
    private final AllowedHosts hosts;

    public BrowserGuard(AdminGuard admin, AllowedHosts hosts) {
        this.admin = admin;
        this.hosts = hosts;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (!(handler instanceof HandlerMethod method)) {
            return true;
        }
        if (AdminGuard.isAdmin(method)) {
            // the admin guard answers first, HEAD included: a caller it refuses learns nothing of the route
            return true;
        }
        if (answeredHead(request, response, method)) {
            return false;
        }
        boolean markedGet = StateChange.markedGet(method);
        if (TenantGuard.isDataPlane(method)) {
            // an unknown caller's 401 comes first, as from the tenant guard
            Caller.of(request).requireKnown();
            check(request, StateChange.of(method, request), markedGet);
        }
        return true;
    }

    /** Answers HEAD on a GET that changes state with 405: a HEAD answer is headers only, nothing to run it for. */
    static boolean answeredHead(HttpServletRequest request, HttpServletResponse response, HandlerMethod method) {
        if (!"HEAD".equals(request.getMethod()) || !StateChange.markedGet(method)) {
            return false;
        }
        response.setStatus(HttpStatus.METHOD_NOT_ALLOWED.value());
        response.setHeader("Allow", "GET");
        return true;
    }

    /** Throws the 403 of a call a browser may not make without a token; {@code markedGet} implies {@code changes}. */
    public void check(HttpServletRequest request, boolean changes, boolean markedGet) {
        if (hasToken(request)) {
            return;
        }
        if (CrossOrigin.from(request)) {
            throw TenantAccessException.crossOrigin();
        }
        if (!hosts.allows(request)) {
            throw TenantAccessException.foreignHost();
        }
        if (StateChange.refusedToBrowser(request, changes, markedGet)) {
            throw TenantAccessException.browserChange();
        }
    }

    private boolean hasToken(HttpServletRequest request) {
        Caller caller = Caller.of(request);
        return caller == Caller.ADMIN
                || caller.scoped() && !caller.tenant().tokenless()
                || admin.mode() == AdminGuard.Mode.TOKEN && admin.allows(request);
    }
}
