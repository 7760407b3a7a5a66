package io.mykit.delay.queue.dispatch;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.util.LogSafe;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Writes due jobs to the log and counts them delivered: for trying the gateway out and for dry runs. */
public class LogTarget implements DeliveryTarget {
    public static final String NAME = "log";
    private static final Logger log = LoggerFactory.getLogger(LogTarget.class);

    private final DeliveryOutcomes outcomes;

    public LogTarget(DeliveryOutcomes outcomes) {
        this.outcomes = outcomes;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void deliver(int bucket, List<Job> jobs) {
        // bodies may hold personal data: at INFO only their size, the body itself at DEBUG; caller text escaped
        jobs.forEach(job -> {
            log.info(
                    "due: id={} topic={} subtopic={} bizKey={} bucket={} bodyChars={}",
                    job.getId(),
                    job.getTopic(),
                    LogSafe.escape(job.getSubtopic()),
                    LogSafe.escape(job.getBizKey()),
                    bucket,
                    job.getBody() == null ? 0 : job.getBody().length());
            if (log.isDebugEnabled()) {
                log.debug("due: id={} body={}", job.getId(), LogSafe.escape(job.getBody()));
            }
        });
        outcomes.settle(NAME, bucket, jobs, List.of());
    }
}
