package io.mykit.delay.test.brokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
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
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The RocketMQ name server and broker work with the plain remoting client, and survive a broker kill. */
class RocketMqBrokerSmokeTest {

    private static final Logger log = LoggerFactory.getLogger(RocketMqBrokerSmokeTest.class);

    private static final String TAG = "DueTag";
    private static final int MESSAGES = 100;
    private static final int SEND_TIMEOUT_MS = 1_000;
    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(60);
    private static final long POLL_TIMEOUT_MS = 200;

    private static TestRocketMq rocketMq;

    @BeforeAll
    static void startRocketMq() {
        long begin = System.nanoTime();
        rocketMq = TestRocketMq.start();
        log.info("TIMING rocketmq name server + broker start {} ms", millisSince(begin));
    }

    @Test
    void hundred_messages_arrive_with_tag_keys_and_user_properties() throws Exception {
        String topic = "smoke_properties";
        rocketMq.createTopic(topic);
        Map<String, MessageExt> received = new ConcurrentHashMap<>();
        DefaultMQPushConsumer consumer = consumer("smoke_properties_consumer", topic, received);
        DefaultMQProducer producer = producer("smoke_properties_producer");
        try {
            long begin = System.nanoTime();
            for (int i = 0; i < MESSAGES; i++) {
                Message message = new Message(topic, TAG, "job-" + i, body(i));
                message.putUserProperty("mykitJobId", "job-" + i);
                message.putUserProperty("mykitDueAt", Long.toString(1_700_000_000_000L + i));
                SendResult result = producer.send(message);
                assertThat(result.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            }
            log.info("TIMING rocketmq {} sends {} ms", MESSAGES, millisSince(begin));

            await().atMost(DELIVERY_TIMEOUT).until(() -> received.size() == MESSAGES);
            log.info("TIMING rocketmq {} sent and consumed {} ms", MESSAGES, millisSince(begin));

            for (int i = 0; i < MESSAGES; i++) {
                MessageExt message = received.get("job-" + i);
                assertThat(message.getTopic()).isEqualTo(topic);
                assertThat(message.getTags()).isEqualTo(TAG);
                assertThat(message.getKeys()).isEqualTo("job-" + i);
                assertThat(message.getUserProperty("mykitJobId")).isEqualTo("job-" + i);
                assertThat(message.getUserProperty("mykitDueAt")).isEqualTo(Long.toString(1_700_000_000_000L + i));
                assertThat(message.getBody()).isEqualTo(body(i));
            }
        } finally {
            producer.shutdown();
            consumer.shutdown();
        }
    }

    @Test
    void send_fails_while_broker_is_killed_and_succeeds_after_it_returns_with_its_messages() throws Exception {
        String topic = "smoke_outage";
        rocketMq.createTopic(topic);
        DefaultMQProducer producer = producer("smoke_outage_producer");
        try {
            assertThat(producer.send(new Message(topic, TAG, "before", body(1))).getSendStatus())
                    .isEqualTo(SendStatus.SEND_OK);

            rocketMq.stopBroker();
            long failBegin = System.nanoTime();
            assertThatThrownBy(() -> producer.send(new Message(topic, TAG, "during", body(2))))
                    .isInstanceOf(MQClientException.class);
            long failMillis = millisSince(failBegin);
            log.info("TIMING rocketmq send to a killed broker failed in {} ms", failMillis);
            assertThat(failMillis).isLessThan(3L * SEND_TIMEOUT_MS);

            long restartBegin = System.nanoTime();
            rocketMq.startBroker();
            log.info("TIMING rocketmq broker start again {} ms", millisSince(restartBegin));

            long sendBegin = System.nanoTime();
            assertThat(producer.send(new Message(topic, TAG, "after", body(3))).getSendStatus())
                    .isEqualTo(SendStatus.SEND_OK);
            log.info("TIMING rocketmq first send after restart {} ms", millisSince(sendBegin));
        } finally {
            producer.shutdown();
        }

        assertThat(readFromBeginning(topic, 2)).containsOnlyKeys("before", "after");
    }

    private static DefaultMQProducer producer(String group) throws MQClientException {
        DefaultMQProducer producer = new DefaultMQProducer(group);
        producer.setNamesrvAddr(rocketMq.namesrvAddr());
        producer.setInstanceName(group);
        producer.setSendMsgTimeout(SEND_TIMEOUT_MS);
        producer.setRetryTimesWhenSendFailed(0);
        producer.setPollNameServerInterval(1_000);
        producer.start();
        return producer;
    }

    private static DefaultMQPushConsumer consumer(String group, String topic, Map<String, MessageExt> sink)
            throws MQClientException {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(rocketMq.namesrvAddr());
        consumer.setInstanceName(group);
        consumer.setPollNameServerInterval(1_000);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, TAG);
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            messages.forEach(message -> sink.put(message.getKeys(), message));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        return consumer;
    }

    /** Reads a topic from its first offset with a lite pull consumer assigned to every queue (no rebalance). */
    private static Map<String, MessageExt> readFromBeginning(String topic, int expected) throws MQClientException {
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer(topic + "_reader");
        consumer.setNamesrvAddr(rocketMq.namesrvAddr());
        consumer.setInstanceName(topic + "_reader");
        consumer.start();
        try {
            Collection<MessageQueue> queues = consumer.fetchMessageQueues(topic);
            consumer.assign(queues);
            for (MessageQueue queue : queues) {
                consumer.seekToBegin(queue);
            }
            Map<String, MessageExt> received = new ConcurrentHashMap<>();
            await().atMost(DELIVERY_TIMEOUT).until(() -> {
                consumer.poll(POLL_TIMEOUT_MS).forEach(message -> received.put(message.getKeys(), message));
                return received.size() >= expected;
            });
            return received;
        } finally {
            consumer.shutdown();
        }
    }

    private static byte[] body(int i) {
        return ("{\"jobId\":\"job-" + i + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    private static long millisSince(long nanoTime) {
        return Duration.ofNanos(System.nanoTime() - nanoTime).toMillis();
    }
}
