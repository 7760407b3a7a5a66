package io.mykit.delay.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which scenarios run: the A/B mode (19) only with an older jar to compare, and then by itself unless told. */
class BenchSettingsTest {

    @Test
    void all_leaves_out_the_ab_mode_without_an_older_jar() {
        BenchSettings s = settings("bench.scenarios", "all");

        assertThat(s.runs(18)).isTrue();
        assertThat(s.runs(BenchSettings.AB_SCENARIO)).isFalse();
    }

    @Test
    void an_older_jar_alone_runs_the_ab_mode(@TempDir Path dir) throws Exception {
        Path older = Files.createFile(dir.resolve("older.jar"));
        Path current = Files.createFile(dir.resolve("current.jar"));

        BenchSettings s = settings("bench.ab.jar", older.toString(), "bench.ab.current-jar", current.toString());

        assertThat(s.scenarios()).isEqualTo("19");
        assertThat(AbScenario.sides(s)).extracting(AbScenario.Side::jar).containsExactly(older, current);
    }

    @Test
    void the_ab_mode_named_without_an_older_jar_is_refused_before_anything_runs() {
        assertThatThrownBy(() -> settings("bench.scenarios", "3,19"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bench.ab.jar");
    }

    private static BenchSettings settings(String... keyValues) {
        Properties properties = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            properties.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return BenchSettings.fromProperties(properties);
    }
}
