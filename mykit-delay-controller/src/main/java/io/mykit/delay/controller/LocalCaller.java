package io.mykit.delay.controller;

import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** Whether a request comes straight from a program on this host, for admin calls without a token. */
final class LocalCaller {
    /** Only what a servlet container reports as a remote address: an IP literal, never a name to look up. */
    private static final Pattern IP_LITERAL = Pattern.compile("[0-9A-Fa-f:.]+");

    private static final Pattern IPV4_LITERAL = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    /** What a proxy adds when it relays a request for someone, whether or not the server was told to read it. */
    private static final List<String> FORWARDING_HEADERS = List.of("Forwarded", "X-Forwarded-For", "X-Real-IP");

    private LocalCaller() {}

    /**
     * The TCP peer ({@link SocketPeerValve}; never taken from a header) and the remote address after any forwarded
     * header processing are both loopback, and no proxy says it relayed the request for someone else.
     */
    static boolean direct(HttpServletRequest request) {
        Object peer = request.getAttribute(SocketPeerValve.ATTRIBUTE);
        if (!(peer instanceof String address) || !isLoopback(address) || !isLoopback(request.getRemoteAddr())) {
            return false;
        }
        for (String header : FORWARDING_HEADERS) {
            if (request.getHeader(header) != null) {
                return false;
            }
        }
        return true;
    }

    /**
     * The Host header is absent or names this host by a loopback name: a page on another name that resolves to
     * 127.0.0.1 (DNS rebinding) is sent with its own name.
     */
    static boolean namesThisHost(HttpServletRequest request) {
        String host = request.getHeader("Host");
        if (host == null) {
            return true;
        }
        Authority authority = Authority.parse(host.trim(), request.getScheme());
        if (authority == null) {
            return false;
        }
        String name = authority.host();
        if (name.equals("localhost")) {
            return true;
        }
        if (name.startsWith("[") && name.endsWith("]")) {
            return isLoopback(name.substring(1, name.length() - 1));
        }
        return IPV4_LITERAL.matcher(name).matches() && isLoopback(name);
    }

    static boolean isLoopback(String address) {
        if (address == null || !IP_LITERAL.matcher(address).matches()) {
            return false;
        }
        try {
            return InetAddress.getByName(address.toLowerCase(Locale.ROOT)).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
