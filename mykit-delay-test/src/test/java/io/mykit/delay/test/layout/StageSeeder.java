package io.mykit.delay.test.layout;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.store.DelayStore;
import io.mykit.delay.queue.store.RedisDelayStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Puts jobs in every stage a bucket holds, through the store's own verbs, so a layout test starts from states the
 * gateway really produces: waiting, waiting again after a released reservation, handed over to a broker (in flight),
 * ready in a pull topic's list, reserved by a puller (in flight). A few more jobs end while a restore mark is up, so
 * the buckets also hold tombstones and ready-list entries of ended jobs.
 */
final class StageSeeder {
    static final String BROKER_TOPIC = "broker-t";
    static final List<String> PULL_TOPICS = List.of("pull-a", "pull-b");
    private static final long HOUR = 3_600_000;
    private static final int DEFAULT_TRIES = 5;
    /** One job in this many (on top of the count asked for) ends after it was placed. */
    private static final int ENDED_ONE_IN = 200;

    private StageSeeder() {}

    /** Leaves {@code live} jobs with ids {@code tag-i} in Redis, spread over the stages. */
    static void seed(RedisDelayStore store, String tag, int live) {
        long now = System.currentTimeMillis();
        int total = live + live / ENDED_ONE_IN;
        List<Job> jobs = new ArrayList<>(total);
        for (int i = 0; i < total; i++) {
            int kind = i % 10;
            // 40% wait an hour, 20% are due for a broker, 40% are due for pullers
            String topic = kind >= 4 && kind < 6 ? BROKER_TOPIC : PULL_TOPICS.get(i % 2);
            boolean ends = i >= live;
            // jobs that end are due a millisecond after the others of their kind, so the pump queues them last: ready,
            // not reserved, when they are cancelled
            long created = (kind < 4 ? now : now - 10_000) + (ends ? 1 : 0);
            long delay = kind < 4 ? HOUR : 0;
            String id = ends ? tag + "-ended-" + i : tag + "-" + i;
            jobs.add(new Job(id, topic, null, null, delay, 0, 0, 0, "body " + i, created));
        }
        store.add(jobs);
        int ready = pumpDue(store, now);
        reserveSome(store, now, ready / (4 * store.buckets() * PULL_TOPICS.size()));
        store.beginRestore();
        for (Job job : jobs.subList(live, total)) {
            // a puller's finish ends a ready job (leaving a finish mark), a cancel a waiting one, the broker's ack one
            // a broker sender holds
            switch (store.finish(job.getId(), now)) {
                case NOT_DUE -> store.delete(job.getId());
                case IN_FLIGHT -> store.forget(store.bucketOf(job.getId()), List.of(job.getId()));
                default -> {}
            }
        }
    }

    /** Hands every due job over: broker jobs stay in flight, pull jobs go to their ready lists. Returns how many. */
    private static int pumpDue(DelayStore store, long now) {
        int ready = 0;
        for (int b = 0; b < store.buckets(); b++) {
            Map<String, List<String>> byTopic = new LinkedHashMap<>();
            store.pumpDue(b, now, Integer.MAX_VALUE, HOUR)
                    .jobs()
                    .forEach(job -> byTopic.computeIfAbsent(job.getTopic(), t -> new ArrayList<>())
                            .add(job.getId()));
            for (String topic : PULL_TOPICS) {
                ready += store.toReady(b, topic, byTopic.getOrDefault(topic, List.of()));
            }
        }
        return ready;
    }

    /** About a quarter of each ready list is reserved; a quarter of those are released again, due in an hour. */
    private static void reserveSome(DelayStore store, long now, int perList) {
        for (int b = 0; b < store.buckets(); b++) {
            for (String topic : PULL_TOPICS) {
                List<Job> reserved =
                        store.reserveFrom(b, topic, HOUR, Math.max(1, perList)).jobs();
                for (int i = 0; i < reserved.size(); i += 4) {
                    store.release(reserved.get(i).getId(), now + HOUR, now, DEFAULT_TRIES);
                }
            }
        }
    }
}
