package io.mykit.delay.queue.journal;

import java.util.List;

/** A push group's storing row: its jobs were journaled at {@code createdAt}, and Redis may not hold them yet. */
public record StoringGroup(String key, List<String> jobIds, long createdAt) {
}
