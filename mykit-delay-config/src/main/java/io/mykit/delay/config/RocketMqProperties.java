package io.mykit.delay.config;

import static io.mykit.delay.config.Checks.check;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code mykit.delay.rocketmq.*}: the RocketMQ target. */
public class RocketMqProperties {
    /** Name-server list, host:port;host:port; the original's namesrvAddr binds here too. */
    private String namesrvAddr;
    /** Producer group. */
    private String producerGroup = "mykit-delay-producer";
    /** Prefix added to the topic to name the RocketMQ topic. */
    private String topicPrefix = "";
    /** Explicit topic -> RocketMQ topic names; wins over the prefix. */
    private Map<String, String> topicMapping = new LinkedHashMap<>();
    /** How long a send may wait for SEND_OK. */
    private Duration sendTimeout = Duration.ofSeconds(3);

    public String getNamesrvAddr() {
        return namesrvAddr;
    }

    public void setNamesrvAddr(String namesrvAddr) {
        this.namesrvAddr = namesrvAddr;
    }

    public String getProducerGroup() {
        return producerGroup;
    }

    public void setProducerGroup(String producerGroup) {
        this.producerGroup = producerGroup;
    }

    public String getTopicPrefix() {
        return topicPrefix;
    }

    public void setTopicPrefix(String topicPrefix) {
        this.topicPrefix = topicPrefix;
    }

    public Map<String, String> getTopicMapping() {
        return topicMapping;
    }

    public void setTopicMapping(Map<String, String> topicMapping) {
        this.topicMapping = topicMapping;
    }

    public Duration getSendTimeout() {
        return sendTimeout;
    }

    public void setSendTimeout(Duration sendTimeout) {
        this.sendTimeout = sendTimeout;
    }

    /** Checked only when a route uses the rocketmq target. */
    void validate(List<String> errors) {
        check(
                errors,
                namesrvAddr != null && !namesrvAddr.isBlank(),
                "mykit.delay.rocketmq.namesrv-addr must be set: a route uses the rocketmq target");
        check(
                errors,
                producerGroup != null && !producerGroup.isBlank(),
                "mykit.delay.rocketmq.producer-group must be set");
    }
}
