package io.mykit.delay.queue.journal;

import io.mykit.delay.common.model.JobStatus;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class StateChangeTest {

    private static StateChange plain(String id, JobStatus status) {
        return new StateChange(id, status, false, "t", 1);
    }

    @Test
    void last_plain_change_of_a_job_wins() {
        var result = StateChange.finalPerJob(List.of(
                plain("a", JobStatus.Ready), plain("b", JobStatus.Ready), plain("a", JobStatus.Finish)));
        assertThat(result).extracting(StateChange::jobId, StateChange::status)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a", JobStatus.Finish),
                        org.assertj.core.groups.Tuple.tuple("b", JobStatus.Ready));
    }

    @Test
    void stored_change_arriving_after_a_timer_change_does_not_overwrite_it() {
        var result = StateChange.finalPerJob(List.of(
                plain("a", JobStatus.Ready), new StateChange("a", JobStatus.Delay, true, "push", 2)));
        assertThat(result).singleElement().extracting(StateChange::status).isEqualTo(JobStatus.Ready);
    }

    @Test
    void stored_change_alone_is_kept_and_is_replaced_by_a_later_plain_one() {
        assertThat(StateChange.finalPerJob(List.of(StateChange.stored("a", 1))))
                .singleElement().extracting(StateChange::onlyFromWaitPut).isEqualTo(true);
        assertThat(StateChange.finalPerJob(List.of(StateChange.stored("a", 1), plain("a", JobStatus.Ready))))
                .singleElement().extracting(StateChange::status).isEqualTo(JobStatus.Ready);
    }

    @Test
    void ended_state_is_not_replaced_by_a_later_non_ended_change_in_the_same_batch() {
        for (JobStatus ended : List.of(JobStatus.Finish, JobStatus.Delete, JobStatus.Dead)) {
            var result = StateChange.finalPerJob(List.of(plain("a", ended), plain("a", JobStatus.Ready),
                    plain("a", JobStatus.Delay), StateChange.stored("a", 3)));
            assertThat(result).singleElement().extracting(StateChange::status).isEqualTo(ended);
        }
    }
}
