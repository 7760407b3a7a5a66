package io.mykit.delay.queue.dispatch.broker;

import java.time.Duration;

/**
 * Where and how the ActiveMQ target sends.
 *
 * @param brokerUrl the OpenWire URL, e.g. {@code failover:(tcp://127.0.0.1:61616)}
 * @param username broker user, or null for none
 * @param password broker password
 * @param topics send to JMS topics rather than queues
 * @param destinationPrefix added to a job's topic to name its destination
 * @param sendTimeout how long a send, a commit or a connect may wait for the broker
 * @param confirmEachSend wait for the broker's answer to every send, not only to the batch's commit
 * @param jobJson a message's text is the whole job as the original's JSON, not only its body
 */
public record ActiveMqSettings(
        String brokerUrl,
        String username,
        String password,
        boolean topics,
        String destinationPrefix,
        Duration sendTimeout,
        boolean confirmEachSend,
        boolean jobJson) {}
