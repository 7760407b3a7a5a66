package io.mykit.delay.controller;

import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.web.method.HandlerMethod;

/**
 * Which calls change state, as handlers declare it: any method but GET, HEAD and OPTIONS, and a GET of a handler marked
 * {@link ChangesState}. Without a token, a browser never makes one by loading a page, and never makes a marked GET at
 * all: an image, a link or a typed address is a GET a page (or a message) can make a browser send.
 */
final class StateChange {
    private static final Set<String> READING_METHODS = Set.of("GET", "HEAD", "OPTIONS");
    /** Handler method -> marked; an annotation lookup per request would cost every call. */
    private static final Map<Method, Boolean> MARKED = new ConcurrentHashMap<>();

    private StateChange() {}

    /** Whether the handler is a GET that changes state. */
    static boolean markedGet(HandlerMethod handler) {
        return MARKED.computeIfAbsent(handler.getMethod(), method -> method.isAnnotationPresent(ChangesState.class));
    }

    /** Whether running the handler for this request may change state. */
    static boolean of(HandlerMethod handler, HttpServletRequest request) {
        return !READING_METHODS.contains(request.getMethod()) || markedGet(handler);
    }

    /** Whether a browser asks for a change it must not get without a token: see the class comment. */
    static boolean refusedToBrowser(HttpServletRequest request, boolean changes, boolean markedGet) {
        return markedGet ? BrowserSignals.any(request) : changes && BrowserSignals.navigation(request);
    }
}
