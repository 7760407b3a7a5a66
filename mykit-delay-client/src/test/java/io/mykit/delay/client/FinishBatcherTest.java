package io.mykit.delay.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FinishBatcherTest {

    @Test
    void a_batch_leaves_as_soon_as_it_is_full() {
        FinishBatcher<String> batcher = new FinishBatcher<>(3);

        assertThat(batcher.add("a").full()).isEmpty();
        assertThat(batcher.add("b").full()).isEmpty();
        assertThat(batcher.add("c").full()).containsExactly("a", "b", "c");
        assertThat(batcher.drain()).isEmpty();
    }

    @Test
    void only_the_first_item_of_a_batch_asks_for_a_timer() {
        FinishBatcher<String> batcher = new FinishBatcher<>(3);

        assertThat(batcher.add("a").started()).isTrue();
        assertThat(batcher.add("b").started()).isFalse();
        assertThat(batcher.drain()).containsExactly("a", "b");
        assertThat(batcher.add("c").started()).as("after a drain, a new batch").isTrue();
    }

    @Test
    void a_drain_takes_what_waits_once() {
        FinishBatcher<String> batcher = new FinishBatcher<>(100);
        batcher.add("a");
        batcher.add("b");

        List<String> batch = batcher.drain();

        assertThat(batch).containsExactly("a", "b");
        assertThat(batcher.drain()).isEmpty();
    }

    @Test
    void a_batch_of_one_leaves_with_each_item() {
        FinishBatcher<String> batcher = new FinishBatcher<>(1);

        assertThat(batcher.add("a").full()).containsExactly("a");
        assertThat(batcher.add("b").full()).containsExactly("b");
    }

    @Test
    void held_items_leave_neither_full_nor_by_timer_but_all_at_once_when_taken() {
        FinishBatcher<String> batcher = new FinishBatcher<>(2);
        batcher.add("a");
        batcher.hold();

        FinishBatcher.Added<String> added = batcher.add("b");
        FinishBatcher.Added<String> more = batcher.add("c");

        assertThat(added.full()).isEmpty();
        assertThat(more.full()).isEmpty();
        assertThat(more.started()).isFalse();
        assertThat(batcher.drain()).as("a timer set before the hold").isEmpty();
        assertThat(batcher.takeAll()).containsExactly("a", "b", "c");
        assertThat(batcher.takeAll()).isEmpty();
    }

    @Test
    void held_items_leave_once_the_first_of_them_is_old_enough() {
        FinishBatcher<String> batcher = new FinishBatcher<>(10);
        batcher.hold();
        batcher.add("a");
        batcher.add("b");

        assertThat(batcher.drainOlderThan(Long.MAX_VALUE)).isEmpty();
        assertThat(batcher.drainOlderThan(0)).containsExactly("a", "b");
        assertThat(batcher.drainOlderThan(0)).isEmpty();
    }
}
