package io.mykit.delay.queue.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

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
        try (InputStream in = LuaScript.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing Lua script resource " + path);
            }
            return new LuaScript(name, withIncludes(path, new String(in.readAllBytes(), StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Scripts cannot call each other in Redis: a "--#include x" line is replaced by lua/include/x.lua before loading. */
    private static String withIncludes(String path, String source) throws IOException {
        StringBuilder out = new StringBuilder(source.length());
        for (String line : source.split("\n", -1)) {
            if (line.startsWith(INCLUDE)) {
                String included = "lua/include/" + line.substring(INCLUDE.length()).trim() + ".lua";
                try (InputStream in = LuaScript.class.getClassLoader().getResourceAsStream(included)) {
                    if (in == null) {
                        throw new IllegalStateException(path + " includes the missing resource " + included);
                    }
                    out.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                }
            } else {
                out.append(line).append('\n');
            }
        }
        return out.toString();
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
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
