package io.mykit.delay.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class JobIdGeneratorTest {

    @Test
    void an_id_is_a_version_7_uuid_the_gateway_accepts() {
        String id = JobIdGenerator.next();

        assertThat(id).matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
        assertThat(Names.plain(id, 127 - 64, true))
                .as("fits behind the longest tenant name")
                .isTrue();
        UUID uuid = UUID.fromString(id);
        assertThat(uuid.version()).isEqualTo(7);
        assertThat(uuid.variant()).isEqualTo(2);
    }

    @Test
    void an_id_starts_with_its_milliseconds() {
        Instant at = Instant.parse("2026-11-28T20:00:00.123Z");
        String id = JobIdGenerator.next(Clock.fixed(at, ZoneOffset.UTC));

        long millis = Long.parseLong(id.substring(0, 8) + id.substring(9, 13), 16);
        assertThat(millis).isEqualTo(at.toEpochMilli());
    }

    @Test
    void ids_of_later_milliseconds_sort_after_earlier_ones() {
        String earlier = JobIdGenerator.next(Clock.fixed(Instant.ofEpochMilli(1_000), ZoneOffset.UTC));
        String later = JobIdGenerator.next(Clock.fixed(Instant.ofEpochMilli(1_001), ZoneOffset.UTC));

        assertThat(later).isGreaterThan(earlier);
    }

    @Test
    void ids_of_one_millisecond_differ() {
        Clock fixed = Clock.fixed(Instant.ofEpochMilli(1_000), ZoneOffset.UTC);
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            ids.add(JobIdGenerator.next(fixed));
        }
        assertThat(ids).hasSize(10_000);
    }
}
