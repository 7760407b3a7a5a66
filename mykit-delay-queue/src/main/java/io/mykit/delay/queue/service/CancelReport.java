package io.mykit.delay.queue.service;

import java.util.List;
import java.util.Map;

/**
 * What a cancel by bizKey did: ids now cancelled, and why each other pending job of the page was not; {@code more}:
 * pending jobs of the key may follow, from {@code next} on (pass it as {@code after}).
 */
public record CancelReport(List<String> cancelled, Map<String, String> refused, boolean more, String next) {}
