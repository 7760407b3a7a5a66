package io.mykit.delay.queue.dispatch;

import io.mykit.delay.common.model.Job;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

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
        jobs.forEach(job -> log.info("due: id={} topic={} subtopic={} bizKey={} body={}",
                job.getId(), job.getTopic(), job.getSubtopic(), job.getBizKey(), job.getBody()));
        outcomes.settle(bucket, jobs, List.of());
    }
}
