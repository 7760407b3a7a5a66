package io.mykit.delay.common.util;

import static org.assertj.core.api.Assertions.assertThat;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobCodec;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class IdsAndBucketsTest {

    @Test
    void ids_are_unique_within_and_across_generators_at_the_same_millisecond() {
        JobIdGenerator a = new JobIdGenerator(() -> 42L);
        JobIdGenerator b = new JobIdGenerator(() -> 42L);
        Set<String> ids = new HashSet<>();
        IntStream.range(0, 50_000).forEach(i -> {
            ids.add(a.next());
            ids.add(b.next());
        });
        assertThat(ids).hasSize(100_000);
        assertThat(ids).allMatch(id -> id.matches("[0-9a-f]{30}"));
    }

    @Test
    void id_is_zero_padded_hex_millis_then_random_hex() {
        JobIdGenerator gen = new JobIdGenerator(() -> 0x1_8c2f_3a4bL);
        String first = gen.next();
        String second = gen.next();
        assertThat(first).startsWith("00018c2f3a4b").matches("[0-9a-f]{30}");
        assertThat(second).startsWith("00018c2f3a4b");
        assertThat(first.substring(12)).isNotEqualTo(second.substring(12));
    }

    @Test
    void a_thousand_ids_share_no_guessable_neighbour() {
        JobIdGenerator gen = new JobIdGenerator(() -> 42L);
        List<BigInteger> randomParts = IntStream.range(0, 1_000)
                .mapToObj(i -> new BigInteger(gen.next().substring(12), 16))
                .toList();
        assertThat(new HashSet<>(randomParts)).hasSize(1_000);
        List<BigInteger> sorted = randomParts.stream().sorted().toList();
        BigInteger close = BigInteger.ONE.shiftLeft(32);
        for (int i = 1; i < sorted.size(); i++) {
            // 72 random bits: 1,000 draws fall about 2^62 apart; a step of a few billion would be a counter
            assertThat(sorted.get(i).subtract(sorted.get(i - 1))).isGreaterThan(close);
        }
        for (int i = 1; i < randomParts.size(); i++) {
            // nor does one id tell the next: consecutive ids differ in more than a low-order count
            BigInteger step =
                    randomParts.get(i).subtract(randomParts.get(i - 1)).abs();
            assertThat(step).isGreaterThan(close);
        }
    }

    @Test
    void ids_of_one_generator_sort_by_time() {
        long[] clock = {1_000};
        JobIdGenerator gen = new JobIdGenerator(() -> clock[0]);
        String early = gen.next();
        clock[0] = 2_000;
        assertThat(gen.next()).isGreaterThan(early);
    }

    @Test
    void bucket_is_stable_and_in_range() {
        assertThat(Buckets.of("order-42", 16)).isEqualTo(Buckets.of("order-42", 16));
        IntStream.range(0, 1_000)
                .forEach(i -> assertThat(Buckets.of("id-" + i, 16)).isBetween(0, 15));
        long used = IntStream.range(0, 1_000)
                .map(i -> Buckets.of("id-" + i, 16))
                .distinct()
                .count();
        assertThat(used).isEqualTo(16);
    }

    @Test
    void score_is_create_time_plus_delay_plus_priority_and_record_round_trips() {
        Job job = new Job("j1", "t", "s", "k", 1_000, 5, 10, 3, "héllo \"x\"", 1_700_000_000_000L);
        assertThat(job.dueTime()).isEqualTo(1_700_000_001_005L);
        Job back = JobCodec.decode("j1", JobCodec.encode(job));
        assertThat(back).usingRecursiveComparison().isEqualTo(job);
    }
}
