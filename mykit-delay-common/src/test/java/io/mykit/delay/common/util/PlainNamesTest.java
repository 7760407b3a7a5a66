package io.mykit.delay.common.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class PlainNamesTest {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.:\\-]{1,128}");
    private static final Pattern TOPIC = Pattern.compile("[A-Za-z0-9_.\\-]{1,128}");
    private static final String CHARS = "aZz09_.-:/ \t\u00e9\u0130\u212a\n;,%AbC";

    @Test
    void agrees_with_the_alphabet_written_as_a_regex() {
        Random random = new Random(14);
        for (int n = 0; n < 200_000; n++) {
            int length = random.nextInt(4) == 0 ? 120 + random.nextInt(12) : random.nextInt(6);
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < length; i++) {
                text.append(CHARS.charAt(random.nextInt(random.nextBoolean() ? 8 : CHARS.length())));
            }
            String s = text.toString();
            assertThat(PlainNames.plain(s, 128, true))
                    .as("id %s", s)
                    .isEqualTo(ID.matcher(s).matches());
            assertThat(PlainNames.plain(s, 128, false))
                    .as("topic %s", s)
                    .isEqualTo(TOPIC.matcher(s).matches());
        }
    }

    @Test
    void a_region_is_checked_alone() {
        assertThat(PlainNames.plain("/get/orders", 5, 11, 200, false)).isTrue();
        assertThat(PlainNames.plain("/get/", 5, 5, 200, false)).as("empty").isFalse();
        assertThat(PlainNames.plain("/get/a/b", 5, 8, 200, false)).isFalse();
    }
}
