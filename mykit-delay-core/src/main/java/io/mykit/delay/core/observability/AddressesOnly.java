package io.mykit.delay.core.observability;

import java.util.StringJoiner;
import java.util.regex.Pattern;

/**
 * A connection URL or address list reduced to where it points, for /actuator/info: no user or password in any of the
 * forms drivers accept ({@code jdbc:mysql://u:p@host/db}, {@code failover:(tcp://u:p@a,tcp://b)}, {@code ?password=},
 * {@code ;password=}, {@code (host=a,password=p)}, {@code jdbc:oracle:thin:u/p@host}).
 */
final class AddressesOnly {
    static final String REDACTED = "[redacted]";

    private AddressesOnly() {}

    static String of(String url) {
        if (url == null) {
            return "";
        }
        String shown = withoutUserInfo(url);
        shown = shown.substring(0, firstOf(shown, "?;"));
        if (firstOf(shown, "@=") < shown.length()) {
            // a form not understood above (key-value hosts, Oracle's user/password@host): the driver's name only
            int vendorEnd = shown.startsWith("jdbc:") ? shown.indexOf(':', 5) : -1;
            return (vendorEnd < 0 ? "" : shown.substring(0, vendorEnd + 1)) + REDACTED;
        }
        return shown;
    }

    /** A list whose separator would end a URL above ({@code a:9876;b:9876}), each entry reduced. */
    static String each(String list, String separator) {
        if (list == null) {
            return "";
        }
        StringJoiner out = new StringJoiner(separator);
        for (String entry : list.split(Pattern.quote(separator), -1)) {
            out.add(of(entry));
        }
        return out.toString();
    }

    /** In every authority (after "//", up to the next '/', '?' or '#'), everything up to its last '@'. */
    private static String withoutUserInfo(String url) {
        StringBuilder out = new StringBuilder(url);
        int from = 0;
        int slashes;
        while ((slashes = out.indexOf("//", from)) >= 0) {
            int start = slashes + 2;
            int end = start;
            while (end < out.length() && "/?#".indexOf(out.charAt(end)) < 0) {
                end++;
            }
            int at = out.lastIndexOf("@", end - 1);
            if (at >= start) {
                out.delete(start, at + 1);
            }
            from = start;
        }
        return out.toString();
    }

    private static int firstOf(String text, String characters) {
        for (int i = 0; i < text.length(); i++) {
            if (characters.indexOf(text.charAt(i)) >= 0) {
                return i;
            }
        }
        return text.length();
    }
}
