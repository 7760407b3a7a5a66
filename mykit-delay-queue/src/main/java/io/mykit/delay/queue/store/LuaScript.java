package io.mykit.delay.queue.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;

/** One Lua script resource ({@code lua/<name>.lua}) and its SHA1, which EVALSHA runs by. */
public final class LuaScript {
    private static final String INCLUDE = "--#include ";
    private final String name;
    private final String source;
    private final String sha;

    private LuaScript(String name, String source) {
        this.name = name;
        this.source = source;
        this.sha = sha1(source);
    }

    public static LuaScript load(String name) {
        String path = "lua/" + name + ".lua";
        StringBuilder source = new StringBuilder();
        placeWithIncludes(path, read(path, null), new HashSet<>(), source);
        return new LuaScript(name, source.toString());
    }

    /**
     * Scripts cannot call each other in Redis: a "--#include x" line is replaced by lua/include/x.lua before loading,
     * within an included file too. Each file is placed once, where it is first named, so an include can name those it
     * needs without defining them twice in a script that names them as well.
     */
    private static void placeWithIncludes(String path, String source, Set<String> placed, StringBuilder out) {
        for (String line : source.split("\n", -1)) {
            if (line.startsWith(INCLUDE)) {
                String name = line.substring(INCLUDE.length()).trim();
                if (placed.add(name)) {
                    String included = "lua/include/" + name + ".lua";
                    placeWithIncludes(included, read(included, path), placed, out);
                }
            } else {
                out.append(line).append('\n');
            }
        }
    }

    /** A Lua resource's text; {@code includedBy} names the file that includes it, null for a script. */
    private static String read(String path, String includedBy) {
        try (InputStream in = LuaScript.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException(
                        includedBy == null
                                ? "missing Lua script resource " + path
                                : includedBy + " includes the missing resource " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String name() {
        return name;
    }

    public String source() {
        return source;
    }

    public String sha() {
        return sha;
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
