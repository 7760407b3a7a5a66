package io.mykit.delay.spring;

import java.time.Duration;
import java.util.List;

/**
 * One {@link DelayListener} method with its settings resolved.
 *
 * @param credit 0 for the consumer's default, twice the concurrency
 */
record ListenerEndpoint(
        String id, List<String> topics, int concurrency, int credit, Duration ttr, ListenerMethod method) {}
