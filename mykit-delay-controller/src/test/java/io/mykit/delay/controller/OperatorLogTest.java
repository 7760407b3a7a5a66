package io.mykit.delay.controller;

import static org.assertj.core.api.Assertions.assertThat;

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
}
