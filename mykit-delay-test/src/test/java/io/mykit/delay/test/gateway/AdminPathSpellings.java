package io.mykit.delay.test.gateway;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Other spellings of a route's path, the kind that slip past a check of the raw request URI while Tomcat or Spring
 * still maps them to the route: {@code ;params} after a segment, {@code %xx} for letters, doubled slashes, {@code /./},
 * {@code x/..;/} detours, a trailing slash, other letter cases. Send them over {@link RawHttp}: a URI class would
 * normalise some of them away.
 */
public final class AdminPathSpellings {

    /** One request line: method and raw target. */
    public record Call(String method, String target) {
        @Override
        public String toString() {
            return method + " " + target;
        }
    }

    private AdminPathSpellings() {}

    /**
     * Every admin route, the plain spelling first and then every other one, HEAD as well as GET for the GET routes:
     * /clearAll, /reStore (expire false and true), /reStore/status, /reStoreJob of {@code jobId}, their REST forms
     * /admin/clear, /admin/restore and /admin/restore/{@code jobId}, and respawn and drop of the dead letters of
     * {@code topic}.
     */
    public static List<Call> adminCalls(String topic, String jobId) {
        List<Call> calls = new ArrayList<>();
        List<Call> routes = List.of(
                new Call("GET", "/clearAll"),
                new Call("GET", "/reStore?expire=false"),
                new Call("GET", "/reStore?expire=true"),
                new Call("GET", "/reStore/status"),
                new Call("GET", "/reStoreJob?jobId=" + jobId),
                new Call("POST", "/dead/" + topic + "/respawn"),
                new Call("DELETE", "/dead/" + topic),
                new Call("POST", "/admin/clear"),
                new Call("POST", "/admin/restore?expire=true"),
                new Call("POST", "/admin/restore/" + jobId));
        for (Call route : routes) {
            int query = route.target().indexOf('?');
            String path = query < 0 ? route.target() : route.target().substring(0, query);
            String rest = query < 0 ? "" : route.target().substring(query);
            List<String> paths = new ArrayList<>(List.of(path));
            paths.addAll(of(path));
            for (String method : route.method().equals("GET") ? List.of("GET", "HEAD") : List.of(route.method())) {
                paths.forEach(spelling -> calls.add(new Call(method, spelling + rest)));
            }
        }
        return calls;
    }

    /** Spellings of {@code path} (e.g. {@code /dead/t/respawn}, no query), without {@code path} itself. */
    public static List<String> of(String path) {
        List<String> segments = List.of(path.substring(1).split("/"));
        Set<String> out = new LinkedHashSet<>();
        for (int i = 0; i < segments.size(); i++) {
            String segment = segments.get(i);
            out.add(with(segments, i, segment + ";x"));
            out.add(with(segments, i, segment + ";"));
            out.add(with(segments, i, segment + ";jsessionid=0"));
            out.add(with(segments, i, encodeLetter(segment, firstLetter(segment), "%%%02x")));
            out.add(with(segments, i, encodeLetter(segment, lastLetter(segment), "%%%02X")));
            out.add(with(segments, i, encodeAll(segment)));
            out.add(with(segments, i, encodeLetter(segment, firstLetter(segment), "%%%02x") + ";x"));
            out.add(with(segments, i, swapCase(segment, firstLetter(segment))));
            for (String detour : List.of("/", "./", "%2e/", "x/..;/", "x/../", "x;/../", "x/%2e%2e/", "x/..%3b/")) {
                out.add(before(segments, i, "/" + detour));
            }
        }
        out.add(with(segments, -1, null));
        out.add("/" + path);
        out.add("//" + path);
        out.add(path + "/");
        out.add(path + "//");
        out.add(path + "/.");
        out.add(path + "/;x");
        out.add(path.toUpperCase(Locale.ROOT));
        out.add(path.toLowerCase(Locale.ROOT));
        out.remove(path);
        return new ArrayList<>(out);
    }

    /** The path with segment {@code index} replaced; index -1 puts {@code ;x} after every segment. */
    private static String with(List<String> segments, int index, String replacement) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < segments.size(); i++) {
            out.append('/').append(index < 0 ? segments.get(i) + ";x" : i == index ? replacement : segments.get(i));
        }
        return out.toString();
    }

    /** The path with {@code insert} (which starts with the separating slash) put in front of segment {@code index}. */
    private static String before(List<String> segments, int index, String insert) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < segments.size(); i++) {
            out.append(i == index ? insert : "/").append(segments.get(i));
        }
        return out.toString();
    }

    private static int firstLetter(String segment) {
        for (int i = 0; i < segment.length(); i++) {
            if (Character.isLetter(segment.charAt(i))) {
                return i;
            }
        }
        return 0;
    }

    private static int lastLetter(String segment) {
        for (int i = segment.length() - 1; i >= 0; i--) {
            if (Character.isLetter(segment.charAt(i))) {
                return i;
            }
        }
        return segment.length() - 1;
    }

    private static String encodeLetter(String segment, int at, String format) {
        return segment.substring(0, at) + String.format(format, (int) segment.charAt(at)) + segment.substring(at + 1);
    }

    private static String encodeAll(String segment) {
        StringBuilder out = new StringBuilder();
        segment.chars().forEach(c -> out.append(String.format("%%%02X", c)));
        return out.toString();
    }

    private static String swapCase(String segment, int at) {
        char c = segment.charAt(at);
        char swapped = Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c);
        return segment.substring(0, at) + swapped + segment.substring(at + 1);
    }
}
