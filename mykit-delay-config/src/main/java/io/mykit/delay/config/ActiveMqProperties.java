package io.mykit.delay.config;

import static io.mykit.delay.config.Checks.check;

import java.time.Duration;
import java.util.List;

/** {@code mykit.delay.activemq.*}: the ActiveMQ target. */
public class ActiveMqProperties {
    /** Broker URL, e.g. failover:(tcp://127.0.0.1:61616); the original's brokerUrl binds here too. */
    private String brokerUrl;
    /** Broker user. */
    private String username;
    /** Broker password. */
    private String password;
    /** Send each topic to a JMS queue or a JMS topic of the same name. */
    private String destinationType = "queue";
    /** Prefix added to the topic to name the destination. */
    private String destinationPrefix = "";
    /** How long a send (or connect) may wait for the broker before it counts as failed. */
    private Duration sendTimeout = Duration.ofSeconds(5);
    /**
     * Wait for the broker's answer to every send inside a batch's transaction. Off: only the commit is awaited, which
     * relies on the broker refusing a commit after a failed send (ActiveMQ >= 5.10's default,
     * rollbackOnlyOnAsyncException); turn it on for a broker where that is switched off.
     */
    private boolean confirmEachSend = false;
    /**
     * What a message's text is: {@code body} (the job's body, metadata in message properties) or {@code job-json} (the
     * whole job as JSON with the original mykit-delay's field names, for consumers written against it).
     */
    private String payload = "body";

    public String getPayload() {
        return payload;
    }

    public void setPayload(String payload) {
        this.payload = payload;
    }

    public String getBrokerUrl() {
        return brokerUrl;
    }

    public void setBrokerUrl(String brokerUrl) {
        this.brokerUrl = brokerUrl;
    }

    public String getUsername() {
        return username;
    }

    public void setUsername(String username) {
        this.username = username;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public String getDestinationType() {
        return destinationType;
    }

    public void setDestinationType(String destinationType) {
        this.destinationType = destinationType;
    }

    public String getDestinationPrefix() {
        return destinationPrefix;
    }

    public void setDestinationPrefix(String destinationPrefix) {
        this.destinationPrefix = destinationPrefix;
    }

    public Duration getSendTimeout() {
        return sendTimeout;
    }

    public void setSendTimeout(Duration sendTimeout) {
        this.sendTimeout = sendTimeout;
    }

    public boolean isConfirmEachSend() {
        return confirmEachSend;
    }

    public void setConfirmEachSend(boolean confirmEachSend) {
        this.confirmEachSend = confirmEachSend;
    }

    /** Checked only when a route uses the activemq target. */
    void validate(List<String> errors) {
        check(
                errors,
                brokerUrl != null && !brokerUrl.isBlank(),
                "mykit.delay.activemq.broker-url must be set: a route uses the activemq target");
        check(
                errors,
                "queue".equals(destinationType) || "topic".equals(destinationType),
                "mykit.delay.activemq.destination-type must be queue or topic");
        check(
                errors,
                "body".equals(payload) || "job-json".equals(payload),
                "mykit.delay.activemq.payload must be body or job-json, was " + payload);
    }
}
