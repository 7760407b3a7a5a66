package io.mykit.delay.common.tenant;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TopicPatternTest {

    @Test
    void star_matches_any_run_of_characters_and_the_rest_is_literal() {
        TopicPattern orders = new TopicPattern("order-*");
        assertThat(orders.matches("order-close")).isTrue();
        assertThat(orders.matches("order-")).isTrue();
        assertThat(orders.matches("order")).isFalse();
        assertThat(orders.matches("xorder-close")).isFalse();
        assertThat(orders.matches(null)).isFalse();
        assertThat(new TopicPattern("pay-timeout").matches("pay-timeout")).isTrue();
        assertThat(new TopicPattern("pay-timeout").matches("pay-timeouts")).isFalse();
        assertThat(new TopicPattern("a*b*c").matches("aXXbYYbc")).isTrue();
        assertThat(new TopicPattern("a*b*c").matches("aXXbYYbcd")).isFalse();
        assertThat(new TopicPattern("*").matches("anything")).isTrue();
        // dots and brackets are plain characters, not a regular expression
        assertThat(new TopicPattern("a.b").matches("axb")).isFalse();
        assertThat(new TopicPattern("[ab]").matches("a")).isFalse();
    }

    @Test
    void a_long_topic_against_many_stars_is_answered_quickly() {
        TopicPattern stars = new TopicPattern("*a*a*a*a*a*a*a*a*b");
        assertThat(stars.matches("a".repeat(200))).isFalse();
    }

    @Test
    void overlap_is_whether_one_topic_matches_both() {
        assertThat(overlaps("order-*", "order-close")).isTrue();
        assertThat(overlaps("order-*", "*-close")).isTrue();
        assertThat(overlaps("order-*", "pay-*")).isFalse();
        assertThat(overlaps("a*", "*b")).isTrue();
        assertThat(overlaps("ab", "a")).isFalse();
        assertThat(overlaps("*", "x")).isTrue();
        assertThat(overlaps("a*c", "ab*")).isTrue();
        assertThat(overlaps("a*c", "ab*d")).isFalse();
    }

    private static boolean overlaps(String a, String b) {
        boolean ab = new TopicPattern(a).overlaps(new TopicPattern(b));
        assertThat(new TopicPattern(b).overlaps(new TopicPattern(a))).isEqualTo(ab);
        return ab;
    }
}
