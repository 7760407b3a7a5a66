package io.mykit.delay.common.util;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JobIdsTest {
    @Test
    void a_namespaced_id_is_a_stored_id_and_never_a_plain_one() {
        String stored = JobIds.namespace("orders") + "order-42";
        assertThat(stored).isEqualTo("orders~order-42");
        assertThat(JobIds.stored(stored)).isTrue();
        assertThat(JobIds.plain(stored, JobIds.MAX_LENGTH)).isFalse();
        assertThat(JobIds.stored("order-42")).isTrue();
    }

    @Test
    void a_stored_id_has_at_most_one_namespace_each_part_of_its_alphabet() {
        assertThat(JobIds.stored("a~b~c")).isFalse();
        assertThat(JobIds.stored("~x")).isFalse();
        assertThat(JobIds.stored("orders~")).isFalse();
        assertThat(JobIds.stored("ord:ers~x")).as("a tenant name has no colon").isFalse();
        assertThat(JobIds.stored("orders~x:y")).isTrue();
        assertThat(JobIds.stored("x".repeat(65) + "~y"))
                .as("tenant names are at most 64")
                .isFalse();
        assertThat(JobIds.stored(null)).isFalse();
    }

    @Test
    void a_page_may_start_at_a_namespace_alone() {
        assertThat(JobIds.cursor("orders~")).isTrue();
        assertThat(JobIds.cursor("orders~x")).isTrue();
        assertThat(JobIds.cursor("~")).isFalse();
        assertThat(JobIds.cursor("a~b~")).isFalse();
    }

    @Test
    void a_namespace_sorts_as_one_range_after_every_plain_id_of_its_name() {
        // '~' sorts after every id character: a tenant's stored ids are one contiguous range in byte order
        String namespace = JobIds.namespace("orders");
        assertThat("orders~a").isGreaterThan(namespace);
        assertThat("orders~" + "z".repeat(120)).isLessThan("orders~~");
        assertThat("ordersz").isLessThan(namespace);
        assertThat("orders_zzz").isLessThan(namespace);
    }
}
