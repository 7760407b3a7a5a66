package io.mykit.delay.queue.service;

import java.time.Duration;

/**
 * What a request may ask for, checked before anything is stored.
 *
 * @param maxBodyBytes largest body, in UTF-8 bytes
 * @param maxBatchSize most jobs (or job ids) in one call
 * @param maxDelay longest delay, ttl or release delay
 * @param defaultTries tries of a job that names none
 */
public record JobLimits(int maxBodyBytes, int maxBatchSize, Duration maxDelay, int defaultTries) {}
