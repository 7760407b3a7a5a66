package io.mykit.delay.controller;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Lets a request run a {@link DataPlane} handler only when its caller is known (401 otherwise); which topics it may
 * touch each handler checks itself. Like {@link AdminGuard} it looks at the handler Spring resolved, so no spelling of
 * a path gets past it; admin handlers keep the admin guard's rule alone.
 */
public class TenantGuard implements HandlerInterceptor {
    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (handler instanceof HandlerMethod method && isDataPlane(method)) {
            Caller.of(request).requireKnown();
        }
        return true;
    }

    /** Whether tenants' tokens apply to this handler (the API document marks the same ones). */
    public static boolean isDataPlane(HandlerMethod method) {
        return AnnotatedElementUtils.hasAnnotation(method.getBeanType(), DataPlane.class)
                && !AdminGuard.isAdmin(method);
    }
}
