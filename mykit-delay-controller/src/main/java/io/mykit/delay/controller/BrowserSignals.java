package io.mykit.delay.controller;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Set;

/**
 * What a browser adds to a request by itself and curl, scripts and server clients do not. Sec-Fetch-* reach only https
 * and loopback origins; on plain http to another name a browser still sends its User-Agent, which a page's images,
 * links and forms cannot change.
 */
final class BrowserSignals {
    private static final List<String> BROWSER_HEADERS = List.of(
            "Origin",
            "Referer",
            "Sec-Fetch-Site",
            "Sec-Fetch-Mode",
            "Sec-Fetch-Dest",
            "Sec-Fetch-User",
            "Upgrade-Insecure-Requests");
    private static final Set<String> NAVIGATION_MODES = Set.of("navigate", "nested-navigate");
    private static final Set<String> DOCUMENT_DESTINATIONS =
            Set.of("document", "iframe", "frame", "fencedframe", "embed", "object");

    private BrowserSignals() {}

    /** Whether a browser sent the request: any header above, or a User-Agent of the Mozilla/ family. */
    static boolean any(HttpServletRequest request) {
        for (String header : BROWSER_HEADERS) {
            if (request.getHeader(header) != null) {
                return true;
            }
        }
        String agent = request.getHeader("User-Agent");
        return agent != null && agent.startsWith("Mozilla/");
    }

    /** Whether the browser loads a page (typed, clicked, a form, a frame) rather than running a page's script. */
    static boolean navigation(HttpServletRequest request) {
        return NAVIGATION_MODES.contains(header(request, "Sec-Fetch-Mode"))
                || DOCUMENT_DESTINATIONS.contains(header(request, "Sec-Fetch-Dest"))
                || request.getHeader("Sec-Fetch-User") != null
                || request.getHeader("Upgrade-Insecure-Requests") != null;
    }

    private static String header(HttpServletRequest request, String name) {
        String value = request.getHeader(name);
        return value == null ? "" : value.trim();
    }
}
