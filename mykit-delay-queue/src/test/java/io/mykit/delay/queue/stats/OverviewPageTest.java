package io.mykit.delay.queue.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mykit.delay.common.error.InvalidJobException;
import io.mykit.delay.queue.stats.StatsService.Overview;
import io.mykit.delay.queue.stats.StatsService.TopicLine;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A page of the overview's topic lines: by name after a cursor, of a prefix, the totals those of every topic. */
class OverviewPageTest {
    /** Topics a-000..a-(n-1) then b-000..b-(n-1), one pending job each, sorted by name as the service sorts them. */
    private static Overview overview(int perLetter) {
        List<TopicLine> lines = IntStream.range(0, 2 * perLetter)
                .mapToObj(i ->
                        new TopicLine((i < perLetter ? "a-" : "b-") + String.format("%03d", i % perLetter), 1, 0, 0, 0))
                .toList();
        return new Overview(
                1L, lines.size(), 0, 0, 0, true, 0L, null, null, null, lines, null, true, lines.size(), false, 0);
    }

    private static List<String> names(Overview page) {
        return page.topics().stream().map(TopicLine::topic).toList();
    }

    @Test
    void without_a_page_asked_for_an_answer_of_up_to_the_cap_is_the_whole_overview() {
        Overview all = overview(300);
        assertThat(all.page(null, null, StatsService.MAX_TOPIC_LINES)).isSameAs(all);
    }

    @Test
    void beyond_the_cap_the_first_lines_by_name_are_listed_and_the_rest_counted() {
        Overview page = overview(700).page(null, null, StatsService.MAX_TOPIC_LINES);
        assertThat(page.topics()).hasSize(1_000);
        assertThat(page.topicCount()).isEqualTo(1_400);
        assertThat(page.topicsCut()).isTrue();
        assertThat(page.moreTopics()).isEqualTo(400);
        assertThat(page.pending()).as("totals of every topic").isEqualTo(1_400);
    }

    @Test
    void pages_follow_one_another_from_the_last_topic_of_the_one_before() {
        Overview all = overview(150);
        Overview first = all.page(null, null, 100);
        assertThat(names(first)).hasSize(100).startsWith("a-000").endsWith("a-099");
        assertThat(first.moreTopics()).isEqualTo(200);
        Overview second = all.page(null, "a-099", 100);
        assertThat(names(second)).startsWith("a-100").endsWith("b-049");
        Overview last = all.page(null, "b-099", 100);
        assertThat(names(last)).hasSize(50).endsWith("b-149");
        assertThat(last.moreTopics()).isZero();
        assertThat(last.topicsCut()).as("lines before it were left out").isTrue();
        assertThat(last.pending()).isEqualTo(300);
        // a cursor that is no topic's name starts at the first name after it
        assertThat(names(all.page(null, "a-0995", 2))).containsExactly("a-100", "a-101");
        assertThat(all.page(null, "c", 100).topics()).isEmpty();
    }

    @Test
    void a_prefix_lists_and_counts_its_topics_only() {
        Overview all = overview(150);
        Overview page = all.page("b-14", null, 100);
        assertThat(names(page))
                .containsExactly(
                        IntStream.range(140, 150).mapToObj(i -> "b-" + i).toArray(String[]::new));
        assertThat(page.topicCount()).isEqualTo(10);
        assertThat(page.moreTopics()).isZero();
        assertThat(page.topicsCut()).isFalse();
        assertThat(page.pending()).as("totals of every topic").isEqualTo(300);
        assertThat(names(all.page("b-", "b-147", 100))).containsExactly("b-148", "b-149");
    }

    @Test
    void a_limit_outside_1_to_1000_or_a_cursor_longer_than_a_topic_is_refused_naming_it() {
        Overview all = overview(3);
        assertThatThrownBy(() -> all.page(null, null, 0))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("limit");
        assertThatThrownBy(() -> all.page(null, null, 1_001))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("limit");
        assertThatThrownBy(() -> all.page("p".repeat(129), null, 10))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("prefix");
        assertThatThrownBy(() -> all.page(null, "a".repeat(129), 10))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("after");
    }
}
