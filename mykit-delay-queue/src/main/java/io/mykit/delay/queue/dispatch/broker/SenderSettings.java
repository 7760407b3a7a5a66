package io.mykit.delay.queue.dispatch.broker;

import java.time.Duration;

/**
 * How a broker target's sender threads take hand-overs.
 *
 * @param senders threads sending to the broker in parallel
 * @param backlog most jobs the target holds waiting for its senders
 * @param backlogWait how long the broker may answer nothing while the backlog is full before the target counts as hung
 * @param stopWait how long a stop waits for the senders before their client closes
 */
public record SenderSettings(int senders, int backlog, Duration backlogWait, Duration stopWait) {}
