package io.mykit.delay.controller;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Checks the caller of every {@link AdminOnly} handler. It looks at the handler Spring resolved, not at the URL, so no
 * spelling of a path (";x", "%63", "//", "/x/..;/", HEAD for a GET route) reaches an admin handler unchecked.
 * Refusals are {@link AdminAccessDeniedException}s, answered by {@link ApiExceptionHandler}.
 */
public class AdminGuard implements HandlerInterceptor {
    /** Only what a servlet container reports as a remote address: an IP literal, never a name to look up. */
    private static final Pattern IP_LITERAL = Pattern.compile("[0-9A-Fa-f:.]+");
    /** Handler -> whether it is {@link AdminOnly}. */
    private static final Map<Handler, Boolean> ADMIN_HANDLERS = new ConcurrentHashMap<>();

    /** Who may call admin handlers. */
    public enum Mode {
        /** A token is set: the token, from every address, loopback included. */
        TOKEN,
        /** No token (the default): loopback callers only. */
        LOOPBACK,
        /** No token and mykit.delay.admin.open=true: anyone. */
        OPEN
    }

    private final byte[] token;
    private final Mode mode;

    /** {@code token} null or blank: none; {@code open} matters only then. */
    public AdminGuard(String token, boolean open) {
        boolean hasToken = token != null && !token.isBlank();
        this.token = hasToken ? token.getBytes(StandardCharsets.UTF_8) : null;
        this.mode = hasToken ? Mode.TOKEN : open ? Mode.OPEN : Mode.LOOPBACK;
    }

    public Mode mode() {
        return mode;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (handler instanceof HandlerMethod method && isAdmin(method)) {
            check(request);
        }
        return true;
    }

    /** Whether the guard checks callers of this handler (the API document marks the same ones). */
    public static boolean isAdmin(HandlerMethod method) {
        // the annotation scan was 6% of a push's HTTP CPU (twice per request): handlers are few, their verdicts kept
        return ADMIN_HANDLERS.computeIfAbsent(new Handler(method.getBeanType(), method.getMethod()),
                handler -> method.hasMethodAnnotation(AdminOnly.class)
                        || AnnotatedElementUtils.hasAnnotation(handler.beanType(), AdminOnly.class));
    }

    private record Handler(Class<?> beanType, Method method) {
    }

    private void check(HttpServletRequest request) {
        switch (mode) {
            case TOKEN -> {
                String presented = presented(request);
                // constant time: how much of a guess matched must not show in the response time
                if (presented == null || !MessageDigest.isEqual(token, presented.getBytes(StandardCharsets.UTF_8))) {
                    throw AdminAccessDeniedException.tokenRequired();
                }
            }
            case LOOPBACK -> {
                if (!isLoopback(request.getRemoteAddr())) {
                    throw AdminAccessDeniedException.notLoopback();
                }
            }
            case OPEN -> {
            }
        }
    }

    private static String presented(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return header.substring(7).trim();
        }
        return request.getHeader("X-Admin-Token");
    }

    static boolean isLoopback(String remoteAddress) {
        if (remoteAddress == null || !IP_LITERAL.matcher(remoteAddress).matches()) {
            return false;
        }
        try {
            return InetAddress.getByName(remoteAddress).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
