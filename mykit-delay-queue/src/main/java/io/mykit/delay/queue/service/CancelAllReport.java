package io.mykit.delay.queue.service;

import java.util.Map;

/** What cancelling every pending job did; {@code refused}: the first refusals (at most 1,000), job id -> why. */
public record CancelAllReport(long cancelled, Map<String, String> refused) {}
