package io.mykit.delay.controller;

import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The names by which callers without a token may call the gateway in its Host header. A web page on a name its author
 * controls can make that name resolve to the gateway's address (DNS rebinding); the browser then sends the page's name,
 * and treats the gateway as the page's own origin, so no cross-origin mark shows. Always allowed: no Host, an IP
 * literal (a page on an IP literal is served by that address itself), {@code localhost} and {@code *.localhost}
 * (browsers resolve them to loopback themselves), this machine's own names and the configured ones ({@code *.suffix}
 * for every name under it). Another DNS name is refused when a browser sent the request, or always in {@code only}
 * mode; without it a program may call by any name, since service names are the gateway's to learn only from its
 * settings.
 */
public final class AllowedHosts {
    private static final Pattern IPV4_LITERAL = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6_LITERAL = Pattern.compile("\\[[0-9a-f:.]+]");

    private final Set<String> names;
    private final List<String> suffixes;
    private final boolean only;

    /** {@code listed}: names and {@code *.suffix} patterns, any case; {@code own}: this machine's names. */
    public AllowedHosts(Collection<String> listed, Collection<String> own, boolean only) {
        Set<String> exact = new LinkedHashSet<>();
        List<String> under = new ArrayList<>();
        for (String entry : listed) {
            String name = entry.trim().toLowerCase(Locale.ROOT);
            if (name.startsWith("*.")) {
                under.add(name.substring(1));
            } else if (!name.isEmpty()) {
                exact.add(name);
            }
        }
        own.forEach(name -> exact.add(name.toLowerCase(Locale.ROOT)));
        this.names = Set.copyOf(exact);
        this.suffixes = List.copyOf(under);
        this.only = only;
    }

    /** Loopback names and IP literals only: for guards built without settings. */
    public static AllowedHosts loopbackOnly() {
        return new AllowedHosts(List.of(), List.of(), false);
    }

    /** This machine's host name, as the system reports it, and its first label; empty when it cannot be read. */
    public static List<String> machineNames() {
        try {
            String name = InetAddress.getLocalHost().getHostName().toLowerCase(Locale.ROOT);
            int dot = name.indexOf('.');
            return dot > 0 ? List.of(name, name.substring(0, dot)) : List.of(name);
        } catch (UnknownHostException unresolvable) {
            return List.of();
        }
    }

    /** The names allowed besides loopback names and IP literals, for the start-up log. */
    public Set<String> names() {
        Set<String> all = new LinkedHashSet<>(names);
        suffixes.forEach(suffix -> all.add("*" + suffix));
        return all;
    }

    /** Whether the request's Host header may be answered to a caller without a token. */
    public boolean allows(HttpServletRequest request) {
        String host = request.getHeader("Host");
        if (host == null) {
            return true;
        }
        Authority authority = Authority.parse(host.trim(), request.getScheme());
        if (authority != null && isAllowed(authority.host())) {
            return true;
        }
        return !only && !BrowserSignals.any(request);
    }

    private boolean isAllowed(String name) {
        if (IPV6_LITERAL.matcher(name).matches() || IPV4_LITERAL.matcher(name).matches()) {
            return true;
        }
        String bare = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
        if (bare.equals("localhost") || bare.endsWith(".localhost") || names.contains(bare)) {
            return true;
        }
        for (String suffix : suffixes) {
            if (bare.endsWith(suffix)) {
                return true;
            }
        }
        return false;
    }
}
