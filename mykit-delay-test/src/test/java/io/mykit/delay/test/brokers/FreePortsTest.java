package io.mykit.delay.test.brokers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Ports for servers that bind them later: never the same one twice in a JVM (a 3-master Redis Cluster once got a bus
 * port another of its nodes had been given), and each surefire fork from its own part of the range.
 */
class FreePortsTest {

    @Test
    void a_port_is_handed_out_once_per_jvm() {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            assertThat(seen.add(FreePorts.freePort())).as("handed out before").isTrue();
        }
    }

    @Test
    void forks_draw_from_separate_parts_of_the_range() {
        assertThat(FreePorts.forkShare(20_000, 32_767, 1, 2)).containsExactly(20_000, 26_383);
        assertThat(FreePorts.forkShare(20_000, 32_767, 2, 2)).containsExactly(26_384, 32_767);
        assertThat(FreePorts.forkShare(20_000, 32_767, 0, 2))
                .as("outside surefire: the whole range")
                .containsExactly(20_000, 32_767);
        assertThat(FreePorts.forkShare(20_000, 32_767, 1, 1)).containsExactly(20_000, 32_767);
    }
}
