package io.mykit.delay.test.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The fixtures kept in the test resources are the shared originals, byte for byte, where a checkout has those. */
class OriginalFixturesTest {

    @Test
    void each_fixture_equals_its_shared_original_where_one_is_beside_the_checkout() throws Exception {
        for (String file : OriginalFixtures.FILES) {
            assertThat(OriginalFixtures.text(file)).as(file).isNotBlank();
            Optional<Path> shared = OriginalFixtures.sharedCopy(file);
            if (shared.isPresent()) {
                assertThat(OriginalFixtures.text(file))
                        .as("%s against %s", file, shared.get())
                        .isEqualTo(Files.readString(shared.get(), StandardCharsets.UTF_8));
            }
        }
    }
}
