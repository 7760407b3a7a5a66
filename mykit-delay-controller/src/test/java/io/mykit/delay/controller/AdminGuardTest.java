package io.mykit.delay.controller;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class AdminGuardTest {

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.1.2.3", "0:0:0:0:0:0:0:1", "::1", "::ffff:127.0.0.1"})
    void loopback_literals_count_as_loopback(String address) {
        assertThat(AdminGuard.isLoopback(address)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"192.0.2.2", "10.0.0.1", "::ffff:192.0.2.2", "2001:db8::1", "0.0.0.0", "localhost",
            "127.0.0.1.example.com", "", "::1%lo", "127.0.0.1, 10.0.0.1"})
    void other_addresses_and_anything_but_an_ip_literal_do_not(String address) {
        assertThat(AdminGuard.isLoopback(address)).isFalse();
    }

    @Test
    void a_token_wins_over_open_and_no_token_means_loopback_unless_open() {
        assertThat(new AdminGuard("t", true).mode()).isEqualTo(AdminGuard.Mode.TOKEN);
        assertThat(new AdminGuard(" ", false).mode()).isEqualTo(AdminGuard.Mode.LOOPBACK);
        assertThat(new AdminGuard(null, true).mode()).isEqualTo(AdminGuard.Mode.OPEN);
    }
}
