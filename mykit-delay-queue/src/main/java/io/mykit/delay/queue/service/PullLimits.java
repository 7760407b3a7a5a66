package io.mykit.delay.queue.service;

import java.time.Duration;

/**
 * What a puller may ask for.
 *
 * @param defaultTtr reservation time when a puller gives no ttr
 * @param maxTtr longest ttr a puller may ask for
 * @param maxTimeout longest long-poll a puller may ask for
 */
public record PullLimits(Duration defaultTtr, Duration maxTtr, Duration maxTimeout) {}
