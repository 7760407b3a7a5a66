package io.mykit.delay.queue.service;

import java.util.List;
import java.util.Map;

/** What a batch finish did: ids now finished, and the reason for each id it refused. */
public record FinishReport(List<String> finished, Map<String, String> refused) {}
