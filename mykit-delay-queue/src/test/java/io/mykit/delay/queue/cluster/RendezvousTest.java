package io.mykit.delay.queue.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RendezvousTest {
    private static final int BUCKETS = 64;

    @Test
    void everyBucketHasOneOwnerAndTheSharesAreEven() {
        Map<String, Integer> share = shares(List.of("n1", "n2", "n3"));
        assertThat(share.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(BUCKETS);
        // an even split is 21-22; rendezvous hashing is random-like, so allow a wide but meaningful band
        assertThat(share.values()).allMatch(n -> n >= 12 && n <= 32);
    }

    @Test
    void aMemberLeavingMovesOnlyItsOwnBuckets() {
        List<String> before = List.of("n1", "n2", "n3");
        List<String> after = List.of("n1", "n3");
        for (int b = 0; b < BUCKETS; b++) {
            String was = Rendezvous.owner(b, before);
            if (!was.equals("n2")) {
                assertThat(Rendezvous.owner(b, after)).as("bucket %d", b).isEqualTo(was);
            }
        }
    }

    @Test
    void aMemberJoiningTakesBucketsOnlyForItself() {
        List<String> before = List.of("n1", "n2");
        List<String> after = List.of("n1", "n2", "n3");
        int moved = 0;
        for (int b = 0; b < BUCKETS; b++) {
            String now = Rendezvous.owner(b, after);
            if (!now.equals(Rendezvous.owner(b, before))) {
                assertThat(now).as("bucket %d", b).isEqualTo("n3");
                moved++;
            }
        }
        assertThat(moved).isPositive();
    }

    @Test
    void theOrderOfTheMemberListDoesNotMatter() {
        List<String> members = new ArrayList<>(List.of("a:8080", "b:8080", "c:8080", "d:8080"));
        Map<Integer, String> first = new HashMap<>();
        for (int b = 0; b < BUCKETS; b++) {
            first.put(b, Rendezvous.owner(b, members));
        }
        java.util.Collections.reverse(members);
        for (int b = 0; b < BUCKETS; b++) {
            assertThat(Rendezvous.owner(b, members)).isEqualTo(first.get(b));
        }
        assertThat(Rendezvous.owner(0, List.of())).isNull();
    }

    private static Map<String, Integer> shares(List<String> members) {
        Map<String, Integer> share = new HashMap<>();
        members.forEach(m -> share.put(m, 0));
        for (int b = 0; b < BUCKETS; b++) {
            share.merge(Rendezvous.owner(b, members), 1, Integer::sum);
        }
        return share;
    }
}
