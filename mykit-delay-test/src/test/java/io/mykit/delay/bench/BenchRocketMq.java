package io.mykit.delay.bench;

import io.mykit.delay.test.brokers.TestRocketMq;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;

import java.util.List;

/**
 * The test harness's RocketMQ name server and broker (child JVMs with full JIT and G1, as a broker runs in
 * production; store in a temp dir) and a push consumer of one
 * topic in this JVM, reading from the topic's first offset.
 */
final class BenchRocketMq implements BenchBroker {
    private static final String TOPIC_PREFIX = "DELAY_";
    private static final String CONSUMER_GROUP = "mykit_bench_consumer";

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
        return List.of("mykit.delay.dispatch.default-target=rocketmq",
                "mykit.delay.rocketmq.namesrv-addr=" + rocketMq.namesrvAddr(),
                "mykit.delay.rocketmq.topic-prefix=" + TOPIC_PREFIX);
    }

    @Override
    public void consume(String topic, Receipts receipts) throws MQClientException {
        // the gateway's name for it (prefix; the bench's topics have no '.')
        String rocketTopic = TOPIC_PREFIX + topic;
        // before the consumer subscribes, or its first rebalance finds no queues
        rocketMq.createTopic(rocketTopic);
        consumer = new DefaultMQPushConsumer(CONSUMER_GROUP);
        consumer.setNamesrvAddr(rocketMq.namesrvAddr());
        // not the gateway producer's client instance: the consumer gets its own connections and threads
        consumer.setInstanceName("mykit-bench-consumer");
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(rocketTopic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            for (MessageExt message : messages) {
                receipts.received(message.getUserProperty("jobId"), Long.parseLong(message.getUserProperty("dueTime")));
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
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
