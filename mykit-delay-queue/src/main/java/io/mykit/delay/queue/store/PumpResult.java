package io.mykit.delay.queue.store;

import io.mykit.delay.common.model.Job;
import java.util.List;

/** The due jobs one pump moved to in-flight, and the earliest score left in the bucket (-1 when empty). */
public record PumpResult(List<Job> jobs, long nextDue) {}
