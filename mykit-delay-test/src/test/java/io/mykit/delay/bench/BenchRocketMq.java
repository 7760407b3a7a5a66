package io.mykit.delay.bench;

import io.mykit.delay.test.brokers.TestRocketMq;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * The test harness's RocketMQ name server and broker (child JVMs with full JIT and G1, as a broker runs in production;
 * store in a temp dir) and a push consumer of one topic in this JVM, reading from the topic's first offset.
 */
final class BenchRocketMq implements BenchBroker {
    private static final String TOPIC_PREFIX = "DELAY_";
    private static final String CONSUMER_GROUP = "mykit_bench_consumer";
    /** Producer and consumer group of the broker-alone comparison. */
    private static final String PACED_GROUP = "mykit_bench_paced";

    private static final long SEND_TIMEOUT_MS = 3_000;

    private final TestRocketMq rocketMq;
    private DefaultMQPushConsumer consumer;

    private BenchRocketMq(TestRocketMq rocketMq) {
        this.rocketMq = rocketMq;
    }

    static BenchRocketMq start() {
        return new BenchRocketMq(TestRocketMq.start(TestRocketMq.JvmProfile.SERVER));
    }

    @Override
    public String name() {
        return "RocketMQ";
    }

    @Override
    public List<String> gatewayProperties() {
        return List.of(
                "mykit.delay.dispatch.default-target=rocketmq",
                "mykit.delay.rocketmq.namesrv-addr=" + rocketMq.namesrvAddr(),
                "mykit.delay.rocketmq.topic-prefix=" + TOPIC_PREFIX);
    }

    @Override
    public void consume(String topic, Receipts receipts) throws MQClientException {
        // the gateway's name for it (prefix; the bench's topics have no '.')
        consumer = subscribe(TOPIC_PREFIX + topic, CONSUMER_GROUP, "mykit-bench-consumer", receipts);
    }

    /** A producer of its own (synchronous sends, as the gateway sends a single job) and a consumer group of its own. */
    @Override
    public Paced pacedAlone(String destination, int rate, int seconds, String body) throws Exception {
        String topic = TOPIC_PREFIX + destination;
        Receipts receipts = new Receipts();
        DefaultMQPushConsumer reader = subscribe(topic, PACED_GROUP, "mykit-bench-paced-consumer", receipts);
        DefaultMQProducer producer = new DefaultMQProducer(PACED_GROUP);
        producer.setNamesrvAddr(rocketMq.namesrvAddr());
        producer.setInstanceName("mykit-bench-paced-producer");
        producer.setRetryTimesWhenSendFailed(0);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        try {
            producer.start();
            PacedSchedule.Send send = (id, slotEpochMs) -> {
                Message message = new Message(topic, bytes);
                message.putUserProperty("jobId", id);
                message.putUserProperty("dueTime", Long.toString(slotEpochMs));
                SendResult result = producer.send(message, SEND_TIMEOUT_MS);
                if (result.getSendStatus() != SendStatus.SEND_OK) {
                    throw new IllegalStateException("RocketMQ alone: send status " + result.getSendStatus());
                }
            };
            return PacedSchedule.measure(name(), "synchronous send per message", receipts, rate, seconds, send);
        } finally {
            producer.shutdown();
            reader.shutdown();
        }
    }

    private DefaultMQPushConsumer subscribe(String rocketTopic, String group, String instance, Receipts receipts)
            throws MQClientException {
        // before the consumer subscribes, or its first rebalance finds no queues
        rocketMq.createTopic(rocketTopic);
        DefaultMQPushConsumer pushConsumer = new DefaultMQPushConsumer(group);
        pushConsumer.setNamesrvAddr(rocketMq.namesrvAddr());
        // not the gateway producer's client instance: the consumer gets its own connections and threads
        pushConsumer.setInstanceName(instance);
        pushConsumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        pushConsumer.subscribe(rocketTopic, "*");
        pushConsumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            for (MessageExt message : messages) {
                receipts.received(message.getUserProperty("jobId"), Long.parseLong(message.getUserProperty("dueTime")));
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        pushConsumer.start();
        return pushConsumer;
    }

    @Override
    public boolean isBrokerThread(String threadName) {
        return false;
    }

    @Override
    public boolean isConsumerThread(String threadName) {
        return threadName.startsWith("ConsumeMessageThread_");
    }

    @Override
    public void close() {
        try {
            if (consumer != null) {
                consumer.shutdown();
            }
        } finally {
            rocketMq.stop();
        }
    }
}
