package io.mykit.delay.queue.journal;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.JobStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class StateChangeTest {

    private static StateChange plain(String id, JobStatus status) {
        return new StateChange(id, status, false, "t", 1);
    }

    @Test
    void last_plain_change_of_a_job_wins() {
        var result = StateChange.finalPerJob(
                List.of(plain("a", JobStatus.Ready), plain("b", JobStatus.Ready), plain("a", JobStatus.Finish)));
        assertThat(result)
                .extracting(StateChange::jobId, StateChange::status)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("a", JobStatus.Finish),
                        org.assertj.core.groups.Tuple.tuple("b", JobStatus.Ready));
    }

    @Test
    void stored_change_arriving_after_a_timer_change_does_not_overwrite_it() {
        var result = StateChange.finalPerJob(
                List.of(plain("a", JobStatus.Ready), new StateChange("a", JobStatus.Delay, true, "push", 2)));
        assertThat(result).singleElement().extracting(StateChange::status).isEqualTo(JobStatus.Ready);
    }

    @Test
    void stored_change_alone_is_kept_and_is_replaced_by_a_later_plain_one() {
        assertThat(StateChange.finalPerJob(List.of(StateChange.stored("a", 1))))
                .singleElement()
                .extracting(StateChange::onlyFromWaitPut)
                .isEqualTo(true);
        assertThat(StateChange.finalPerJob(List.of(StateChange.stored("a", 1), plain("a", JobStatus.Ready))))
                .singleElement()
                .extracting(StateChange::status)
                .isEqualTo(JobStatus.Ready);
    }

    @Test
    void ended_state_is_not_replaced_by_a_later_non_ended_change_in_the_same_batch() {
        for (JobStatus ended : List.of(JobStatus.Finish, JobStatus.Delete, JobStatus.Dead)) {
            var result = StateChange.finalPerJob(List.of(
                    plain("a", ended),
                    plain("a", JobStatus.Ready),
                    plain("a", JobStatus.Delay),
                    StateChange.stored("a", 3)));
            assertThat(result).singleElement().extracting(StateChange::status).isEqualTo(ended);
        }
    }

    @Test
    void a_first_end_is_not_replaced_by_a_later_end_in_the_same_batch() {
        var result = StateChange.finalPerJob(List.of(
                plain("a", JobStatus.Ready),
                plain("a", JobStatus.Dead),
                plain("a", JobStatus.Finish),
                plain("b", JobStatus.Delete),
                plain("b", JobStatus.Finish)));
        assertThat(result).extracting(StateChange::status).containsExactly(JobStatus.Dead, JobStatus.Delete);
    }

    @Test
    void ends_left_out_are_counted_per_status_from_the_batch_and_from_the_rows_each_update_changed() {
        List<StateChange> changes = List.of(
                plain("a", JobStatus.Dead),
                plain("a", JobStatus.Finish),
                plain("b", JobStatus.Finish),
                plain("c", JobStatus.Finish),
                plain("d", JobStatus.Ready));
        KeptEnds kept = new KeptEnds();
        kept.outrankedIn(changes, StateChange.finalPerJob(changes));
        // statement 0 sets Dead on a, statement 1 Finish on b and c; one of those rows had ended already
        kept.guarded(0, JobStatus.Dead, 1);
        kept.guarded(1, JobStatus.Finish, 2);
        java.util.Map<JobStatus, Integer> reported = new java.util.EnumMap<>(JobStatus.class);
        kept.report(new int[] {1, 1, 1}, new io.mykit.delay.queue.metrics.QueueMetrics() {
            @Override
            public void endsKept(JobStatus status, int jobs) {
                reported.merge(status, jobs, Integer::sum);
            }
        });
        assertThat(reported).isEqualTo(java.util.Map.of(JobStatus.Finish, 2));
        java.util.Map<JobStatus, Integer> unknown = new java.util.EnumMap<>(JobStatus.class);
        kept.report(new int[] {-1, -1}, new io.mykit.delay.queue.metrics.QueueMetrics() {
            @Override
            public void endsKept(JobStatus status, int jobs) {
                unknown.merge(status, jobs, Integer::sum);
            }
        });
        assertThat(unknown).as("row counts the server did not tell").isEqualTo(java.util.Map.of(JobStatus.Finish, 1));
    }
}
