package io.mykit.delay.controller;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Checks the caller of every {@link AdminOnly} handler. It looks at the handler Spring resolved, not at the URL, so no
 * spelling of a path (";x", "%63", "//", "/x/..;/", HEAD for a GET route) reaches an admin handler unchecked. Refusals
 * are {@link AdminAccessDeniedException}s, answered by {@link ApiExceptionHandler}.
 *
 * <p>Without a token, a browser on this host is a loopback caller too, and it sends what any web page asks it to: so a
 * call a browser marks as sent for a page of another origin ({@link CrossOrigin}) is refused, and in loopback mode so
 * is one whose Host header names this host by anything but a loopback name (DNS rebinding); in open mode a browser's
 * call must name the gateway by a name {@link AllowedHosts} knows. A browser never runs a handler that changes state
 * ({@link StateChange}) by loading a page, typed or clicked, nor by a GET. With a token none of this is needed: a
 * browser never adds the token by itself, and a page of another origin cannot read the console's.
 */
public class AdminGuard implements HandlerInterceptor {
    /** Handler -> whether it is {@link AdminOnly}. */
    private static final Map<Handler, Boolean> ADMIN_HANDLERS = new ConcurrentHashMap<>();

    /** Who may call admin handlers. */
    public enum Mode {
        /** A token is set: the token, from every address, loopback included. */
        TOKEN,
        /** No token (the default): programs on this host only, never a web page of another origin. */
        LOOPBACK,
        /** No token and mykit.delay.admin.open=true: anyone, but never a web page of another origin. */
        OPEN
    }

    private final byte[] token;
    private final Mode mode;
    private final AllowedHosts hosts;

    /** {@code token} null or blank: none; {@code open} matters only then; {@code hosts} only in open mode. */
    public AdminGuard(String token, boolean open, AllowedHosts hosts) {
        boolean hasToken = token != null && !token.isBlank();
        this.token = hasToken ? token.getBytes(StandardCharsets.UTF_8) : null;
        this.mode = hasToken ? Mode.TOKEN : open ? Mode.OPEN : Mode.LOOPBACK;
        this.hosts = hosts;
    }

    /** Open mode knows loopback names and IP literals only. */
    public AdminGuard(String token, boolean open) {
        this(token, open, AllowedHosts.loopbackOnly());
    }

    public Mode mode() {
        return mode;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (handler instanceof HandlerMethod method && isAdmin(method) && !ownTopicOfTenant(method, request)) {
            Caller caller = Caller.of(request);
            if (mode != Mode.TOKEN && caller.scoped() && !caller.tenant().tokenless()) {
                // whatever the loopback or open rule would grant this address, the caller said who it is: a tenant
                throw AdminAccessDeniedException.tenantToken();
            }
            check(request);
            if (mode != Mode.TOKEN
                    && StateChange.refusedToBrowser(
                            request, StateChange.of(method, request), StateChange.markedGet(method))) {
                throw AdminAccessDeniedException.browserChange();
            }
            return !BrowserGuard.answeredHead(request, response, method);
        }
        return true;
    }

    /** A tenant with a token of its own, on a handler open to it, naming a topic of its patterns. */
    private static boolean ownTopicOfTenant(HandlerMethod method, HttpServletRequest request) {
        AdminOnly rule = method.getMethodAnnotation(AdminOnly.class);
        Caller caller = Caller.of(request);
        if (rule == null
                || !rule.ownTopicTenant()
                || !caller.scoped()
                || caller.tenant().tokenless()) {
            return false;
        }
        Object variables = request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
        Object topic = variables instanceof Map<?, ?> map ? map.get("topic") : null;
        return topic instanceof String name && caller.allows(name);
    }

    /** Whether the guard checks callers of this handler (the API document marks the same ones). */
    public static boolean isAdmin(HandlerMethod method) {
        // an annotation scan per request (twice) costs every push; handlers are few, so their verdicts are kept
        return ADMIN_HANDLERS.computeIfAbsent(
                new Handler(method.getBeanType(), method.getMethod()),
                handler -> method.hasMethodAnnotation(AdminOnly.class)
                        || AnnotatedElementUtils.hasAnnotation(handler.beanType(), AdminOnly.class));
    }

    private record Handler(Class<?> beanType, Method method) {}

    /** Throws the refusal when the caller may not make admin calls. */
    public void check(HttpServletRequest request) {
        AdminAccessDeniedException refusal = refusal(request);
        if (refusal != null) {
            throw refusal;
        }
    }

    /** Whether the caller may make admin calls (and see what only an operator sees, such as health details). */
    public boolean allows(HttpServletRequest request) {
        return refusal(request) == null;
    }

    private AdminAccessDeniedException refusal(HttpServletRequest request) {
        return switch (mode) {
            case TOKEN -> {
                String presented = presented(request);
                // constant time: how much of a guess matched must not show in the response time
                boolean valid =
                        presented != null && MessageDigest.isEqual(token, presented.getBytes(StandardCharsets.UTF_8));
                if (valid) {
                    yield null;
                }
                yield presented == null || presented.isEmpty()
                        ? AdminAccessDeniedException.tokenRequired()
                        : AdminAccessDeniedException.tokenWrong();
            }
            case LOOPBACK -> {
                if (!LocalCaller.direct(request)) {
                    yield AdminAccessDeniedException.notLoopback();
                }
                if (!LocalCaller.namesThisHost(request)) {
                    yield AdminAccessDeniedException.foreignHost();
                }
                yield CrossOrigin.from(request) ? AdminAccessDeniedException.crossOrigin() : null;
            }
            case OPEN -> {
                if (!hosts.allows(request)) {
                    yield AdminAccessDeniedException.foreignHostOpen();
                }
                yield CrossOrigin.from(request) ? AdminAccessDeniedException.crossOrigin() : null;
            }
        };
    }

    private static String presented(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return header.substring(7).trim();
        }
        return request.getHeader("X-Admin-Token");
    }
}
