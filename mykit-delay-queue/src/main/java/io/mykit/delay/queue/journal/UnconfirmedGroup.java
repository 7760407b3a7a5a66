package io.mykit.delay.queue.journal;

import java.util.List;

/**
 * A push group whose Redis add is not confirmed yet (its storing row): its jobs were journaled at {@code createdAt},
 * and Redis may not hold them.
 */
public record UnconfirmedGroup(String key, List<String> jobIds, long createdAt) {}
