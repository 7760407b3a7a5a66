package io.mykit.delay.test.ha;

import io.mykit.delay.test.ha.OwnershipSampler.Observation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * What a run of /cluster observations proves about who pumped which bucket when. An answer's state held at some instant
 * between its question and its arrival; two answers in a row of one node that both show a bucket pumping mean it pumped
 * that bucket all along in between (a node that let go and took it back within one sampling period would be wrongly
 * taken as pumping throughout; taking a bucket back needs a ZooKeeper round and a Redis claim).
 */
final class PumpTimeline {

    /**
     * A stretch in which no answer showed anyone pumping {@code bucket}, between the middles of the answers around it:
     * an estimate within half an answer's round trip at each end (the outer bound would count slow answers as gaps).
     */
    record Gap(int bucket, long from, long to) {

        long millis() {
            return to - from;
        }
    }

    private final Map<String, List<Observation>> byNode = new LinkedHashMap<>();
    private final int buckets;

    PumpTimeline(List<Observation> observations, int buckets) {
        this.buckets = buckets;
        observations.stream()
                .sorted(Comparator.comparingLong(Observation::sentAt))
                .forEach(o ->
                        byNode.computeIfAbsent(o.node(), n -> new ArrayList<>()).add(o));
    }

    /**
     * Answers proving two nodes pumped one bucket at once: node X showed it pumping in an answer whose whole window
     * lies inside a stretch in which node Y pumped it all along.
     */
    List<String> doublePumping() {
        List<String> found = new ArrayList<>();
        for (int bucket = 0; bucket < buckets; bucket++) {
            for (Map.Entry<String, List<Observation>> y : byNode.entrySet()) {
                List<long[]> spans = spans(y.getValue(), bucket);
                if (spans.isEmpty()) {
                    continue;
                }
                for (Map.Entry<String, List<Observation>> x : byNode.entrySet()) {
                    if (x.getKey().equals(y.getKey())) {
                        continue;
                    }
                    for (Observation claim : x.getValue()) {
                        long[] span = claim.pumps(bucket) ? spanHolding(spans, claim) : null;
                        if (span != null) {
                            found.add("bucket " + bucket + ": " + x.getKey() + " pumping in its answer of ["
                                    + claim.sentAt() + ", " + claim.receivedAt() + "] while " + y.getKey()
                                    + " pumped it from " + span[0] + " to " + span[1]);
                        }
                    }
                }
            }
        }
        return found;
    }

    /** Stretches longer than {@code longerThanMs} within [from, to] in which nobody was seen pumping a bucket. */
    List<Gap> gaps(long from, long to, long longerThanMs) {
        List<Gap> gaps = new ArrayList<>();
        for (int bucket = 0; bucket < buckets; bucket++) {
            List<Observation> pumping = new ArrayList<>();
            for (List<Observation> answers : byNode.values()) {
                for (Observation o : answers) {
                    if (o.pumps(bucket) && o.sentAt() >= from && o.receivedAt() <= to) {
                        pumping.add(o);
                    }
                }
            }
            pumping.sort(Comparator.comparingLong(PumpTimeline::middle));
            long lastSeen = from;
            for (Observation o : pumping) {
                if (middle(o) - lastSeen > longerThanMs) {
                    gaps.add(new Gap(bucket, lastSeen, middle(o)));
                }
                lastSeen = Math.max(lastSeen, middle(o));
            }
            if (to - lastSeen > longerThanMs) {
                gaps.add(new Gap(bucket, lastSeen, to));
            }
        }
        return gaps;
    }

    /**
     * When {@code node} was first seen pumping every bucket of {@code wanted} in an answer asked at or after
     * {@code after}.
     */
    OptionalLong firstPumpingAll(String node, Collection<Integer> wanted, long after) {
        for (Observation o : byNode.getOrDefault(node, List.of())) {
            if (o.sentAt() >= after && o.view() != null && o.view().pumping().containsAll(wanted)) {
                return OptionalLong.of(o.receivedAt());
            }
        }
        return OptionalLong.empty();
    }

    /** When {@code node} was first seen pumping nothing in an answer asked at or after {@code after}. */
    OptionalLong firstPumpingNone(String node, long after) {
        for (Observation o : byNode.getOrDefault(node, List.of())) {
            if (o.sentAt() >= after && o.view() != null && o.view().pumping().isEmpty()) {
                return OptionalLong.of(o.receivedAt());
            }
        }
        return OptionalLong.empty();
    }

    /**
     * The earliest moment {@code node} can have started pumping after {@code after}: the question of its last answer
     * showing nothing pumped before its first answer showing something pumped (empty if it never pumped).
     */
    OptionalLong pumpingStartedAfter(String node, long after) {
        long idleAsked = after;
        for (Observation o : byNode.getOrDefault(node, List.of())) {
            if (o.sentAt() < after || o.view() == null) {
                continue;
            }
            if (!o.view().pumping().isEmpty()) {
                return OptionalLong.of(idleAsked);
            }
            idleAsked = o.sentAt();
        }
        return OptionalLong.empty();
    }

    /** Answers of {@code node} asked at or after {@code after} that show it pumping something. */
    List<Observation> pumpingAnswers(String node, long after) {
        return byNode.getOrDefault(node, List.of()).stream()
                .filter(o -> o.sentAt() >= after
                        && o.view() != null
                        && !o.view().pumping().isEmpty())
                .toList();
    }

    /** How many answers came back with a view, per node: a sampler that saw nothing proves nothing. */
    Map<String, Long> answered() {
        Map<String, Long> counts = new LinkedHashMap<>();
        byNode.forEach((node, answers) ->
                counts.put(node, answers.stream().filter(o -> o.view() != null).count()));
        return counts;
    }

    private static long middle(Observation o) {
        return (o.sentAt() + o.receivedAt()) / 2;
    }

    // stretches [arrival of one answer, question of the next] of a node's consecutive answers both pumping the bucket
    private static List<long[]> spans(List<Observation> answers, int bucket) {
        List<long[]> spans = new ArrayList<>();
        for (int i = 0; i + 1 < answers.size(); i++) {
            Observation first = answers.get(i);
            Observation next = answers.get(i + 1);
            if (first.pumps(bucket) && next.pumps(bucket) && first.receivedAt() < next.sentAt()) {
                spans.add(new long[] {first.receivedAt(), next.sentAt()});
            }
        }
        return spans;
    }

    // the span (sorted, disjoint) that holds the answer's whole window, if one does
    private static long[] spanHolding(List<long[]> spans, Observation claim) {
        int low = 0;
        int high = spans.size() - 1;
        long[] candidate = null;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            if (spans.get(middle)[0] <= claim.sentAt()) {
                candidate = spans.get(middle);
                low = middle + 1;
            } else {
                high = middle - 1;
            }
        }
        return candidate != null && claim.receivedAt() <= candidate[1] ? candidate : null;
    }
}
