package io.mykit.delay.queue.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TopicConditionsTest {

    @Test
    void names_go_to_the_in_list_and_stars_become_like_patterns_with_wildcards_of_the_name_escaped() {
        TopicConditions conditions = TopicConditions.of(List.of("pay-timeout", "order_*", "*-close", "a*b*c"));
        assertThat(conditions.exact()).containsExactly("pay-timeout");
        assertThat(conditions.like()).containsExactly("order\\_%", "%-close", "a%b%c");
        assertThat(conditions.none()).isFalse();
    }

    @Test
    void no_pattern_means_no_condition_to_query() {
        assertThat(TopicConditions.of(List.of()).none()).isTrue();
    }
}
