package io.mykit.delay.queue.dispatch;

import io.mykit.delay.common.model.Job;

/** A job a broker did not confirm, and why. */
public record SendFailure(Job job, String reason) {}
