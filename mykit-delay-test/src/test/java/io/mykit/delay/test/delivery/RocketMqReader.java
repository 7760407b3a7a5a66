package io.mykit.delay.test.delivery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Reads what the gateway sent to a RocketMQ topic, from the topic's first offset: with the lite pull consumer from a
 * 5.x broker, with the older pull consumer from a 4.x one (the 5.x client's lite pull consumer reads nothing from a
 * 4.9.7 broker, though sends to it succeed and its pull API serves them).
 */
final class RocketMqReader {

    private RocketMqReader() {}

    /** Reads until {@code expected} distinct job ids came or the time is up; job id -> its messages. */
    static Map<String, List<MessageExt>> read(String namesrvAddr, String rocketTopic, int expected, Duration within)
            throws Exception {
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer(rocketTopic + "_reader");
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setInstanceName(rocketTopic + "_reader");
        consumer.start();
        try {
            long end = System.currentTimeMillis() + within.toMillis();
            seekToBegin(consumer, rocketTopic, end);
            Map<String, List<MessageExt>> byJob = new HashMap<>();
            while (byJob.size() < expected && System.currentTimeMillis() < end) {
                for (MessageExt message : consumer.poll(200)) {
                    byJob.computeIfAbsent(message.getUserProperty("jobId"), k -> new ArrayList<>())
                            .add(message);
                }
            }
            return byJob;
        } finally {
            consumer.shutdown();
        }
    }

    /** As {@link #read}, for a 4.x broker: every queue pulled from offset 0 until {@code expected} job ids came. */
    @SuppressWarnings("deprecation")
    static Map<String, List<MessageExt>> readFromOldBroker(
            String namesrvAddr, String rocketTopic, int expected, Duration within) throws Exception {
        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer(rocketTopic + "_old_reader");
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setInstanceName(rocketTopic + "_old_reader");
        consumer.start();
        try {
            Map<MessageQueue, Long> offsets = new HashMap<>();
            consumer.fetchSubscribeMessageQueues(rocketTopic).forEach(queue -> offsets.put(queue, 0L));
            Map<String, List<MessageExt>> byJob = new HashMap<>();
            long end = System.currentTimeMillis() + within.toMillis();
            while (byJob.size() < expected && System.currentTimeMillis() < end) {
                boolean found = false;
                for (Map.Entry<MessageQueue, Long> queue : offsets.entrySet()) {
                    PullResult result = consumer.pull(queue.getKey(), "*", queue.getValue(), 32);
                    if (result.getPullStatus() == PullStatus.FOUND) {
                        found = true;
                        for (MessageExt message : result.getMsgFoundList()) {
                            byJob.computeIfAbsent(message.getUserProperty("jobId"), k -> new ArrayList<>())
                                    .add(message);
                        }
                    }
                    queue.setValue(result.getNextBeginOffset());
                }
                if (!found) {
                    Thread.sleep(200);
                }
            }
            return byJob;
        } finally {
            consumer.shutdown();
        }
    }

    /**
     * Points the reader at the first offset of every queue. A broker just restarted can refuse the first requests (CI
     * saw "send request failed" on the offset lookup once); the reader tries again until {@code end}.
     */
    private static void seekToBegin(DefaultLitePullConsumer consumer, String rocketTopic, long end) throws Exception {
        while (true) {
            try {
                Collection<MessageQueue> queues = consumer.fetchMessageQueues(rocketTopic);
                consumer.assign(queues);
                for (MessageQueue queue : queues) {
                    consumer.seekToBegin(queue);
                }
                return;
            } catch (MQClientException e) {
                if (System.currentTimeMillis() > end) {
                    throw e;
                }
                Thread.sleep(500);
            }
        }
    }
}
