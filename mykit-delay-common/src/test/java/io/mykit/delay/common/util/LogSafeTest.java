package io.mykit.delay.common.util;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogSafeTest {
    @Test
    void line_breaks_and_tabs_are_written_as_their_escapes() {
        assertThat(LogSafe.escape("a\nb\rc\td")).isEqualTo("a\\nb\\rc\\td");
    }

    @Test
    void other_control_characters_c0_c1_and_del_are_written_as_unicode_escapes() {
        assertThat(LogSafe.escape("\u0000\u001b[31m\u007f\u0085\u009b"))
                .isEqualTo("\\u0000\\u001b[31m\\u007f\\u0085\\u009b");
    }

    @Test
    void unicode_line_and_paragraph_separators_and_bidi_overrides_are_escaped() {
        assertThat(LogSafe.escape("a\u2028b\u2029c\u202ed\u2066e")).isEqualTo("a\\u2028b\\u2029c\\u202ed\\u2066e");
    }

    @Test
    void plain_text_comes_back_as_it_was_and_null_stays_null() {
        String plain = "order-42 {\"x\":\"été \\\\n\"} 日本";
        assertThat(LogSafe.escape(plain)).isSameAs(plain);
        assertThat(LogSafe.escape(null)).isNull();
    }
}
