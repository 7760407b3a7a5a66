package io.mykit.delay.controller;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the admin log line shows of a query: the admin routes' own parameters, nothing else. */
class OperatorLogTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            nullValues = "NULL",
            value = {
                "NULL | ''",
                "jobId=order-42 | ?jobId=order-42",
                "cancel=true&expire=false | ?cancel=true&expire=false",
                "cancel=true&token=s3cret | ?cancel=true&<redacted>",
                "password=s3cret&jobId=a | ?<redacted>&jobId=a",
                "s3cret | ?<redacted>",
                "X-Admin-Token=s3cret | ?<redacted>",
                "%74oken=s3cret | ?<redacted>",
                "jobId=a&jobId=b | ?jobId=a&jobId=b"
            })
    void only_the_admin_routes_own_parameters_keep_their_values(String query, String shown) {
        assertThat(OperatorLog.query(query)).isEqualTo(shown).doesNotContain("s3cret");
    }

    @Test
    void a_job_id_cannot_break_the_line_with_c1_controls_or_unicode_separators() {
        assertThat(OperatorLog.clean("a\nb\u0085c\u2028d\u2029e\u202ef")).isEqualTo("a?b?c?d?e?f");
    }
}
