package io.mykit.delay.queue.dispatch.broker;

import java.time.Duration;
import java.util.Map;

/**
 * Where and how the RocketMQ target sends.
 *
 * @param namesrvAddr name-server list, host:port;host:port
 * @param producerGroup the producer group
 * @param topicPrefix added to a job's topic to name its RocketMQ topic
 * @param topicMapping job topic -> RocketMQ topic, winning over the prefix
 * @param sendTimeout how long a send (and the route look-up before it) may wait
 */
public record RocketMqSettings(
        String namesrvAddr,
        String producerGroup,
        String topicPrefix,
        Map<String, String> topicMapping,
        Duration sendTimeout) {
    public RocketMqSettings {
        topicMapping = Map.copyOf(topicMapping);
    }
}
