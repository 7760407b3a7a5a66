package io.mykit.delay.controller;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.Set;

/**
 * Whether a browser sent a request on behalf of a web page of another origin. Browsers say so themselves: a
 * Sec-Fetch-Site other than {@code same-origin} or {@code none} (typed, bookmarked), or an Origin other than the
 * gateway's own, the request's scheme with its Host header's host and port ({@code Origin: null}, from sandboxed frames
 * and cross-site redirects, is another origin). curl and scripts send neither header.
 */
final class CrossOrigin {
    private static final Set<String> OWN_SITE = Set.of("same-origin", "none");

    private CrossOrigin() {}

    static boolean from(HttpServletRequest request) {
        for (String site : Collections.list(request.getHeaders("Sec-Fetch-Site"))) {
            if (!OWN_SITE.contains(site.trim())) {
                return true;
            }
        }
        for (String origin : Collections.list(request.getHeaders("Origin"))) {
            if (!isOwn(origin.trim(), request)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code origin} ({@code scheme://host[:port]}) is the origin the request's Host header names. */
    private static boolean isOwn(String origin, HttpServletRequest request) {
        int separator = origin.indexOf("://");
        if (separator <= 0) {
            return false;
        }
        String scheme = origin.substring(0, separator);
        String authority = origin.substring(separator + 3);
        if (authority.indexOf('/') >= 0 || !scheme.equalsIgnoreCase(request.getScheme())) {
            return false;
        }
        Authority claimed = Authority.parse(authority, scheme);
        Authority own = Authority.parse(request.getHeader("Host"), request.getScheme());
        return claimed != null && claimed.equals(own);
    }
}
