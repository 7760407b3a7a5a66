package io.mykit.delay.core;

import io.mykit.delay.controller.AdminGuard;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Makes every actuator endpoint an operator exposes beyond health, info and prometheus (env, loggers, heapdump,
 * shutdown, ...) an admin call, answered only to whom {@link AdminGuard} allows. It reads the route Spring matched, not
 * the raw path, so no spelling of the path gets past it.
 */
class ActuatorAdminEndpoints implements HandlerInterceptor {
    private static final Set<EndpointId> OPEN =
            Set.of(EndpointId.of("health"), EndpointId.of("info"), EndpointId.of("prometheus"));

    private final AdminGuard guard;
    /** Each admin endpoint's path, base path included: {@code /actuator/env}. */
    private final List<String> adminPaths;

    ActuatorAdminEndpoints(AdminGuard guard, PathMappedEndpoints endpoints) {
        this.guard = guard;
        Set<String> open =
                OPEN.stream().map(endpoints::getPath).filter(Objects::nonNull).collect(Collectors.toSet());
        this.adminPaths = endpoints.getAllPaths().stream()
                .filter(path -> !open.contains(path))
                .toList();
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE) instanceof String route
                && isAdmin(route)) {
            guard.check(request);
        }
        return true;
    }

    private boolean isAdmin(String route) {
        for (String path : adminPaths) {
            if (route.equals(path) || route.startsWith(path + "/")) {
                return true;
            }
        }
        return false;
    }
}
