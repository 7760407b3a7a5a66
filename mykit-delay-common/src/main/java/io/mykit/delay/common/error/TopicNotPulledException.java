package io.mykit.delay.common.error;

/** A pull (or stream) names a topic whose due jobs this gateway delivers to another target: none ever reaches it. */
public class TopicNotPulledException extends DelayException {
    private final String topic;
    private final String target;

    public TopicNotPulledException(String topic, String target) {
        super(message(topic, target), null, null);
        this.topic = topic;
        this.target = target;
    }

    private static String message(String topic, String target) {
        String kind = "log".equals(target) ? "the log target" : "the " + target + " broker";
        return "topic " + topic + " is delivered to " + kind + " (mykit.delay.dispatch routes), not to pullers:"
                + " consume it from there, or route it to pull";
    }

    public String topic() {
        return topic;
    }

    /** The name of the target the topic is routed to: rocketmq, activemq, log. */
    public String target() {
        return target;
    }

    @Override
    public int httpStatus() {
        return 409;
    }
}
