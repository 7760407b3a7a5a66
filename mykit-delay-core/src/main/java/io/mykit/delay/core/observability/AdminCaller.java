package io.mykit.delay.core.observability;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Whether the request being answered comes from a caller the admin guard allows: the admin principal filter gives only
 * such a caller a user principal. No request (a call outside HTTP) is no admin.
 */
final class AdminCaller {
    private AdminCaller() {}

    static boolean asking() {
        if (!(RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes)) {
            return false;
        }
        HttpServletRequest request = attributes.getRequest();
        return request.getUserPrincipal() != null;
    }
}
