package io.mykit.delay.controller;

import io.mykit.delay.common.error.JobNotFoundException;
import io.mykit.delay.common.util.JobIds;
import io.mykit.delay.queue.service.DelayQueueService;
import io.mykit.delay.queue.service.FinishReport;
import io.mykit.delay.queue.service.JobValidator;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Keeps a tenant to its own jobs on the routes that name a job by id. A tenant with a token names the jobs of its
 * namespace ({@link JobIds}): its ids are stored behind it, and an id of another namespace is one it cannot spell. A
 * job of its topics stored outside any namespace (pushed before namespaces) is found under its plain id when the
 * namespace holds none. The tokenless default tenant shares the plain ids with the admin: a job of a topic not its own
 * is answered exactly as an unknown id (404, the same body), and nothing is done to it, so ids cannot be probed.
 */
final class OwnJobs {
    /** What a batch finish answers for an id it does not know. */
    static final String NO_SUCH_JOB = "no such job";

    private OwnJobs() {}

    /** Runs {@code action} on the stored id the caller's {@code jobId} names; its failures name the caller's id. */
    static <T> T on(Caller caller, DelayQueueService queue, String jobId, Function<String, T> action) {
        String stored = resolve(caller, queue, jobId);
        try {
            return action.apply(stored);
        } catch (RuntimeException e) {
            throw caller.shown(e);
        }
    }

    /**
     * The stored id {@code jobId} names for the caller. An id it names no job by is passed on as the route's unknown id
     * (so that every check of the route, and the time taken, is that of an unknown id); a foreign one throws the
     * unknown id's 404.
     */
    static String resolve(Caller caller, DelayQueueService queue, String jobId) {
        caller.requireKnown();
        if (!caller.scoped() || jobId == null) {
            return jobId;
        }
        if (!caller.namespaced()) {
            if (JobIds.stored(jobId)) {
                requireOwnTopic(caller, queue, jobId, jobId);
            }
            return jobId;
        }
        JobValidator.requirePlainId("jobId", jobId, JobIds.MAX_LENGTH);
        String stored = caller.stored(jobId);
        if (requireOwnTopic(caller, queue, stored, jobId)) {
            return stored;
        }
        // another tenant's id is absent from this namespace: it takes these two look-ups, as an unknown id does
        return queue.topicOf(jobId).filter(caller::allows).isPresent() ? jobId : stored;
    }

    /** Whether a job holds {@code stored}; throws the unknown id's 404 when its topic is not the caller's. */
    private static boolean requireOwnTopic(Caller caller, DelayQueueService queue, String stored, String shown) {
        String topic = queue.topicOf(stored).orElse(null);
        if (topic != null && !caller.allows(topic)) {
            throw new JobNotFoundException(shown);
        }
        return topic != null;
    }

    /**
     * Finishes the caller's own jobs among {@code jobIds} with {@code finish}; the others are refused as an unknown id
     * is, in the place of the answer an unknown id would have.
     */
    static FinishReport finishOwn(
            Caller caller, DelayQueueService queue, List<String> jobIds, Function<List<String>, FinishReport> finish) {
        caller.requireKnown();
        if (!caller.scoped()) {
            return finish.apply(jobIds);
        }
        // a list refused whole is refused before any look-up, as it would be without tenants
        queue.requireJobIds(jobIds);
        List<String> given = jobIds.stream().distinct().toList();
        Map<String, String> storedOf =
                caller.namespaced() ? inNamespace(caller, queue, jobIds, given) : sharedIds(caller, queue, given);
        List<String> own = storedOf.values().stream().filter(id -> id != null).toList();
        if (!caller.namespaced() && own.size() == given.size()) {
            return finish.apply(jobIds);
        }
        FinishReport done = own.isEmpty() ? new FinishReport(List.of(), Map.of()) : finish.apply(own);
        // the answer keeps the order of the ids given, foreign ones refused where an unknown id would be
        Set<String> finishedIds = new HashSet<>(done.finished());
        List<String> finished = new ArrayList<>();
        Map<String, String> refused = new LinkedHashMap<>();
        for (String id : given) {
            String stored = storedOf.get(id);
            if (stored != null && finishedIds.contains(stored)) {
                finished.add(id);
            } else if (stored != null && done.refused().containsKey(stored)) {
                refused.put(id, shownMessage(caller, done.refused().get(stored)));
            } else {
                refused.put(id, NO_SUCH_JOB);
            }
        }
        return new FinishReport(finished, refused);
    }

    private static String shownMessage(Caller caller, String message) {
        return caller.namespaced() ? message.replace(caller.namespace(), "") : message;
    }

    /** The default tenant's ids: each as it is, or null for a job of a topic not its own. */
    private static Map<String, String> sharedIds(Caller caller, DelayQueueService queue, List<String> given) {
        Map<String, String> topics = queue.topicsOf(given);
        Map<String, String> storedOf = new LinkedHashMap<>();
        for (String id : given) {
            String topic = id == null ? null : topics.get(id);
            storedOf.put(id, topic == null || caller.allows(topic) ? id : null);
        }
        return storedOf;
    }

    /** A namespaced caller's ids, each as {@link #resolve} finds it; all in one journal query. */
    private static Map<String, String> inNamespace(
            Caller caller, DelayQueueService queue, List<String> jobIds, List<String> given) {
        for (int i = 0; i < jobIds.size(); i++) {
            JobValidator.requirePlainId("jobIds[" + i + "]", jobIds.get(i), JobIds.MAX_LENGTH);
        }
        List<String> candidates = new ArrayList<>(given);
        given.forEach(id -> candidates.add(caller.stored(id)));
        Map<String, String> topics = queue.topicsOf(candidates);
        Map<String, String> storedOf = new LinkedHashMap<>();
        for (String id : given) {
            String stored = caller.stored(id);
            String topic = topics.get(stored);
            if (topic != null) {
                storedOf.put(id, caller.allows(topic) ? stored : null);
            } else {
                String shared = topics.get(id);
                storedOf.put(id, shared != null && caller.allows(shared) ? id : stored);
            }
        }
        return storedOf;
    }

    /** The stored ids a list of the caller's ids may name (null: none given); a namespaced caller's in both forms. */
    static List<String> storedIds(Caller caller, String field, List<String> ids) {
        if (ids == null || !caller.namespaced()) {
            return ids;
        }
        List<String> stored = new ArrayList<>(2 * ids.size());
        for (String id : ids) {
            JobValidator.requirePlainId(field, id, JobIds.MAX_LENGTH);
            stored.add(caller.stored(id));
            stored.add(id);
        }
        return stored;
    }

    /**
     * One page of at most {@code limit} of a namespaced caller's own items, by id after its {@code after}: pages of
     * stored ids are read from its namespace on, and the first id past the namespace ends it. {@code read} gives a page
     * by stored id after a cursor; {@code shown} gives an item as the caller sees it, null for one not its own.
     */
    static <T> List<T> ownPage(
            Caller caller,
            String after,
            int limit,
            BiFunction<String, Integer, List<T>> read,
            Function<T, String> idOf,
            Function<T, T> shown) {
        if (after != null) {
            JobValidator.requirePlainId("after", after, JobIds.MAX_LENGTH);
        }
        List<T> own = new ArrayList<>();
        String from = after == null ? caller.namespace() : caller.stored(after);
        while (true) {
            List<T> page = read.apply(from, limit);
            for (T item : page) {
                if (!idOf.apply(item).startsWith(caller.namespace())) {
                    return own;
                }
                T mine = shown.apply(item);
                if (mine != null && own.size() < limit) {
                    own.add(mine);
                }
            }
            if (page.size() < limit || own.size() >= limit) {
                return own;
            }
            from = idOf.apply(page.get(page.size() - 1));
        }
    }
}
