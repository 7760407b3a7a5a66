package io.mykit.delay.queue.journal;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.JobStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class LedgerRowTest {

    @Test
    void a_packed_flush_reads_back_in_order_with_its_times_threads_and_host() {
        List<StateChange> changes = List.of(
                new StateChange("ord:1.a_b-c", JobStatus.Ready, false, "http-nio-8080-exec-1", 1_000),
                new StateChange("42", JobStatus.Finish, false, "http-nio-8080-exec-2", 990),
                new StateChange("ord:1.a_b-c", JobStatus.Finish, false, "http-nio-8080-exec-1", 1_007),
                new StateChange("7", JobStatus.Dead, false, "line\nbreak", 1_010));

        LedgerRow row = LedgerRow.pack(changes, "node-1");

        assertThat(row.base()).isEqualTo(1_000);
        assertThat(row.changes()).startsWith(";ord:1.a_b-c,2,0,0;42,3,-10,1;").endsWith(";");
        List<LedgerRow.Entry> entries = new LedgerRow(9, row.changes(), row.threads(), "node-1", row.base()).entries();
        assertThat(entries)
                .containsExactly(
                        new LedgerRow.Entry("ord:1.a_b-c", JobStatus.Ready, 1_000, "http-nio-8080-exec-1", "node-1"),
                        new LedgerRow.Entry("42", JobStatus.Finish, 990, "http-nio-8080-exec-2", "node-1"),
                        new LedgerRow.Entry("ord:1.a_b-c", JobStatus.Finish, 1_007, "http-nio-8080-exec-1", "node-1"),
                        new LedgerRow.Entry("7", JobStatus.Dead, 1_010, "line break", "node-1"));
    }

    @Test
    void a_marker_finds_only_its_own_id_and_status() {
        String changes = LedgerRow.pack(
                        List.of(
                                new StateChange("12", JobStatus.Ready, false, "t", 5),
                                new StateChange("112", JobStatus.Finish, false, "t", 5)),
                        "h")
                .changes();

        assertThat(changes).contains(LedgerRow.marker("12")).contains(LedgerRow.marker("112"));
        assertThat(changes).doesNotContain(LedgerRow.marker("1"));
        assertThat(changes).contains(LedgerRow.marker("112", JobStatus.Finish));
        assertThat(changes).doesNotContain(LedgerRow.marker("12", JobStatus.Finish));
    }

    @Test
    void entries_overlaid_on_a_row_never_reopen_an_ended_job() {
        assertThat(LedgerRow.overlay(JobStatus.Delay, entries(JobStatus.Ready, JobStatus.Finish)))
                .isEqualTo(JobStatus.Finish);
        assertThat(LedgerRow.overlay(JobStatus.Delay, entries(JobStatus.Finish, JobStatus.Ready)))
                .isEqualTo(JobStatus.Finish);
        assertThat(LedgerRow.overlay(JobStatus.Delay, entries(JobStatus.Ready, JobStatus.Delay)))
                .isEqualTo(JobStatus.Delay);
        assertThat(LedgerRow.overlay(JobStatus.Delete, entries(JobStatus.Ready)))
                .isEqualTo(JobStatus.Delete);
        assertThat(LedgerRow.overlay(JobStatus.Delay, entries(JobStatus.Dead, JobStatus.Finish)))
                .isEqualTo(JobStatus.Dead);
        assertThat(LedgerRow.overlay(JobStatus.Delay, List.of())).isEqualTo(JobStatus.Delay);
    }

    private static List<LedgerRow.Entry> entries(JobStatus... statuses) {
        return java.util.Arrays.stream(statuses)
                .map(s -> new LedgerRow.Entry("x", s, 1, "t", "h"))
                .toList();
    }
}
