package io.mykit.delay.queue.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class LuaScriptTest {

    @Test
    void every_script_loads_with_every_include_placed() throws IOException, URISyntaxException {
        Path scripts = Path.of(LuaScript.class
                        .getClassLoader()
                        .getResource("lua/add.lua")
                        .toURI())
                .getParent();
        List<String> names;
        try (Stream<Path> files = Files.list(scripts)) {
            names = files.map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith(".lua"))
                    .filter(name -> !name.equals("include_probe.lua"))
                    .map(name -> name.substring(0, name.length() - ".lua".length()))
                    .sorted()
                    .toList();
        }
        assertThat(names).contains("respawn", "pump_due", "finish_all").doesNotContain("put");
        for (String name : names) {
            LuaScript script = LuaScript.load(name);
            assertThat(script.source().lines()).as(name).noneMatch(line -> line.startsWith("--#include"));
            assertThat(script.sha()).as(name).matches("[0-9a-f]{40}");
        }
    }

    @Test
    void an_include_named_by_several_files_is_placed_once_where_first_named() {
        // finish_all names ending (which names stage, which names waiting, which names parts), drop and stale
        String source = LuaScript.load("finish_all").source();
        assertThat(occurrences(source, "local function callInParts(")).isEqualTo(1);
        assertThat(occurrences(source, "local function sliceOf(")).isEqualTo(1);
        assertThat(occurrences(source, "local function nowMs(")).isEqualTo(1);
        assertThat(source.indexOf("local function callInParts(")).isLessThan(source.indexOf("local function sliceOf("));
        assertThat(source.indexOf("local function stageOf(")).isLessThan(source.indexOf("local function dropAll("));
    }

    @Test
    void a_missing_include_names_the_file_that_includes_it() {
        assertThatThrownBy(() -> LuaScript.load("include_probe"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("lua/include_probe.lua includes the missing resource lua/include/no_such_include.lua");
        assertThatThrownBy(() -> LuaScript.load("no_such_script"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("missing Lua script resource lua/no_such_script.lua");
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }
}
