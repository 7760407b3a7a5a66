package io.mykit.delay.queue.journal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SqlLiteralsTest {
    @Test
    void values_are_written_in_placeholder_order_inside_one_transaction() {
        String text = SqlLiterals.inline(List.of(
                sql("INSERT INTO t (a, b, c) VALUES (?, ?, ?)", "x", 7L, null),
                sql("INSERT INTO u (d) VALUES (?),(?)", 3, (short) -2)), 1000);

        assertThat(text).isEqualTo("BEGIN;\nINSERT INTO t (a, b, c) VALUES (_utf8mb4 X'78', 7, NULL);\n"
                + "INSERT INTO u (d) VALUES (3),(-2);\nCOMMIT");
    }

    @Test
    void a_string_is_hex_of_its_utf8_bytes_so_no_byte_of_it_reads_as_sql() {
        StringBuilder out = new StringBuilder();
        SqlLiterals.append(out, "a'\\\0;--\u4f60\ud83d\ude00");
        assertThat(out).hasToString("_utf8mb4 X'61275C003B2D2DE4BDA0F09F9880'");

        StringBuilder empty = new StringBuilder();
        SqlLiterals.append(empty, "");
        assertThat(empty).hasToString("_utf8mb4 X''");
    }

    @Test
    void extreme_numbers_keep_their_sign_and_digits() {
        StringBuilder out = new StringBuilder();
        SqlLiterals.append(out, Long.MIN_VALUE);
        out.append(' ');
        SqlLiterals.append(out, Integer.MAX_VALUE);
        assertThat(out).hasToString(Long.MIN_VALUE + " " + Integer.MAX_VALUE);
    }

    @Test
    void a_value_without_a_literal_form_leaves_the_binding_to_the_driver() {
        assertThat(SqlLiterals.inline(List.of(sql("INSERT INTO t (a) VALUES (?)", 1.5d)), 1000)).isNull();
        assertThat(SqlLiterals.append(new StringBuilder(), new Object())).isFalse();
    }

    @Test
    void placeholders_and_arguments_that_do_not_pair_up_are_refused() {
        assertThat(SqlLiterals.inline(List.of(sql("INSERT INTO t (a, b) VALUES (?, ?)", "one")), 1000)).isNull();
        assertThat(SqlLiterals.inline(List.of(sql("INSERT INTO t (a) VALUES (?)", "one", "two")), 1000)).isNull();
    }

    @Test
    void a_text_longer_than_allowed_is_refused() {
        List<MultiRowInsert.Sql> big = List.of(sql("INSERT INTO t (a) VALUES (?)", "x".repeat(600)));

        assertThat(SqlLiterals.inline(big, 1200)).isNull();
        assertThat(SqlLiterals.inline(big, 1300)).isNotNull();
    }

    private static MultiRowInsert.Sql sql(String text, Object... args) {
        return new MultiRowInsert.Sql(text, new ArrayList<>(Arrays.asList(args)));
    }
}
