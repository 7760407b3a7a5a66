package io.mykit.delay.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The bench JVM's options: the gateway's recommended ones unless {@code bench.jvm-options} names others. */
class BenchJvmTest {

    @Test
    void no_options_asked_keeps_the_gateways_recommended_ones() {
        assertThat(BenchJvm.childOptions(null)).isEqualTo(BenchJvm.GATEWAY_OPTIONS);
        assertThat(BenchJvm.childOptions("  ")).isEqualTo(BenchJvm.GATEWAY_OPTIONS);
    }

    @Test
    void asked_options_replace_them_one_argument_each() {
        assertThat(BenchJvm.childOptions("  -XX:+UseZGC   -Xmx2g ")).containsExactly("-XX:+UseZGC", "-Xmx2g");
    }
}
