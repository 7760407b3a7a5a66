package io.mykit.delay.test.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.core.journal.MissingDatabaseFailureAnalyzer;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Which start failures the missing-database report takes, and which it leaves to Spring Boot's own report. */
class MissingDatabaseFailureAnalyzerTest {
    private final MissingDatabaseFailureAnalyzer analyzer = new MissingDatabaseFailureAnalyzer();

    @Test
    void unknown_database_deep_in_the_chain_is_named_with_both_ways_out() {
        Throwable failure = new IllegalStateException(
                "upgrading failed", new SQLSyntaxErrorException("Unknown database 'journal_x'", "42000", 1049));
        FailureAnalysis analysis = analyzer.analyze(new RuntimeException("bean creation", failure));
        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).contains("'journal_x' does not exist");
        assertThat(analysis.getAction())
                .contains("CREATE DATABASE `journal_x`")
                .contains("createDatabaseIfNotExist=true");
        assertThat(analysis.getCause()).isNull();
    }

    @Test
    void other_sql_failures_are_left_to_spring_boot() {
        SQLException denied = new SQLException("Access denied for user 'mykit'", "28000", 1045);
        assertThat(analyzer.analyze(new IllegalStateException("start", denied))).isNull();
        assertThat(analyzer.analyze(new IllegalStateException("no SQL at all"))).isNull();
    }
}
