package io.mykit.delay.controller;

import io.mykit.delay.common.error.JobNotFoundException;
import io.mykit.delay.common.util.PlainNames;
import io.mykit.delay.queue.service.DelayQueueService;
import io.mykit.delay.queue.service.FinishReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Keeps a tenant to the jobs of its own topics on the routes that name a job by id: a job of another topic is answered
 * exactly as an unknown id (404, the same body), and nothing is done to it, so ids cannot be probed.
 */
final class OwnJobs {
    /** What a batch finish answers for an id it does not know. */
    static final String NO_SUCH_JOB = "no such job";

    private static final int MAX_ID = 128;

    private OwnJobs() {}

    /** Throws the unknown id's 404 when the job belongs to a topic the caller may not use. */
    static void require(Caller caller, DelayQueueService queue, String jobId) {
        caller.requireKnown();
        if (!caller.scoped() || jobId == null || !PlainNames.plain(jobId, MAX_ID, true)) {
            // an id no job can have: the route answers it as it always does
            return;
        }
        queue.topicOf(jobId).ifPresent(topic -> {
            if (!caller.allows(topic)) {
                throw new JobNotFoundException(jobId);
            }
        });
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
        Map<String, String> topics = queue.topicsOf(jobIds.stream().distinct().toList());
        List<String> own = new ArrayList<>(jobIds.size());
        for (String id : jobIds) {
            String topic = id == null ? null : topics.get(id);
            if (topic == null || caller.allows(topic)) {
                own.add(id);
            }
        }
        if (own.size() == jobIds.size()) {
            return finish.apply(jobIds);
        }
        FinishReport done = own.isEmpty() ? new FinishReport(List.of(), Map.of()) : finish.apply(own);
        // the answer keeps the order of the ids given, foreign ones refused where an unknown id would be
        List<String> finished = new ArrayList<>();
        Map<String, String> refused = new LinkedHashMap<>();
        for (String id : jobIds.stream().distinct().toList()) {
            if (done.finished().contains(id)) {
                finished.add(id);
            } else if (done.refused().containsKey(id)) {
                refused.put(id, done.refused().get(id));
            } else {
                refused.put(id, NO_SUCH_JOB);
            }
        }
        return new FinishReport(finished, refused);
    }
}
