package io.mykit.delay.queue.dispatch.broker;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.dispatch.DeliveryOutcomes;
import io.mykit.delay.queue.dispatch.SendFailure;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;

/**
 * Sends due jobs to RocketMQ: topic -> RocketMQ topic (mapping, else prefix + topic with '.' made '_'), subtopic ->
 * tag, bizKey -> keys, job id and due time as user properties. A single job is sent synchronously (the client's async
 * path adds two thread hand-overs per message, which a steady trickle of single jobs pays in CPU and lateness); a batch
 * is sent asynchronously, all at once. A job counts as delivered only on SEND_OK.
 */
public class RocketMqTarget extends BrokerTarget {
    public static final String NAME = "rocketmq";

    private final RocketMqSettings settings;
    private final DefaultMQProducer producer;

    public RocketMqTarget(RocketMqSettings settings, SenderSettings senders, DeliveryOutcomes outcomes) {
        super(NAME, senders, outcomes);
        this.settings = settings;
        this.producer = new DefaultMQProducer(settings.producerGroup());
        producer.setNamesrvAddr(settings.namesrvAddr());
        producer.setSendMsgTimeout((int) settings.sendTimeout().toMillis());
        // a send asks the name server for the topic's route first: a silent one must not hold it longer than a send
        producer.setMqClientApiTimeout((int) settings.sendTimeout().toMillis());
        // the gateway retries with backoff itself; the client's own retries would only stretch a send
        producer.setRetryTimesWhenSendAsyncFailed(0);
        producer.setRetryTimesWhenSendFailed(0);
        try {
            producer.start();
        } catch (MQClientException e) {
            throw new IllegalStateException("cannot start RocketMQ producer for " + settings.namesrvAddr(), e);
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The RocketMQ topic a gateway topic is sent to. */
    public String rocketTopic(String topic) {
        String mapped = settings.topicMapping().get(topic);
        return mapped != null ? mapped : (settings.topicPrefix() + topic).replace('.', '_');
    }

    @Override
    protected void send(List<Job> jobs, List<Job> delivered, List<SendFailure> failed) {
        if (jobs.size() == 1) {
            sendOne(jobs.get(0), delivered, failed);
        } else {
            sendAll(jobs, delivered, failed);
        }
    }

    private void sendOne(Job job, List<Job> delivered, List<SendFailure> failed) {
        try {
            SendResult result =
                    producer.send(toMessage(job), settings.sendTimeout().toMillis());
            if (result.getSendStatus() == SendStatus.SEND_OK) {
                delivered.add(job);
            } else {
                failed.add(new SendFailure(job, "send status " + result.getSendStatus()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failed.add(new SendFailure(job, "interrupted while sending"));
        } catch (Exception e) {
            failed.add(new SendFailure(job, e.toString()));
        }
    }

    private void sendAll(List<Job> jobs, List<Job> delivered, List<SendFailure> failed) {
        CountDownLatch done = new CountDownLatch(jobs.size());
        Set<Job> ok = ConcurrentHashMap.newKeySet();
        ConcurrentHashMap<Job, String> errors = new ConcurrentHashMap<>();
        for (Job job : jobs) {
            try {
                producer.send(
                        toMessage(job),
                        new SendCallback() {
                            @Override
                            public void onSuccess(SendResult result) {
                                progressed();
                                if (result.getSendStatus() == SendStatus.SEND_OK) {
                                    ok.add(job);
                                } else {
                                    errors.put(job, "send status " + result.getSendStatus());
                                }
                                done.countDown();
                            }

                            @Override
                            public void onException(Throwable e) {
                                errors.put(job, e.toString());
                                done.countDown();
                            }
                        },
                        settings.sendTimeout().toMillis());
            } catch (Exception e) {
                errors.put(job, e.toString());
                done.countDown();
            }
        }
        try {
            done.await(settings.sendTimeout().toMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Job job : jobs) {
            if (ok.contains(job)) {
                delivered.add(job);
            } else {
                failed.add(new SendFailure(job, errors.getOrDefault(job, "no answer within the send timeout")));
            }
        }
    }

    private Message toMessage(Job job) {
        String tag = job.getSubtopic() == null || job.getSubtopic().isEmpty() ? null : job.getSubtopic();
        // RocketMQ refuses an empty body; a job without one carries its id instead
        String body = job.getBody() == null || job.getBody().isEmpty() ? job.getId() : job.getBody();
        Message message =
                new Message(rocketTopic(job.getTopic()), tag, job.getBizKey(), body.getBytes(StandardCharsets.UTF_8));
        message.putUserProperty("jobId", job.getId());
        message.putUserProperty("topic", job.getTopic());
        message.putUserProperty("dueTime", Long.toString(job.dueTime()));
        message.putUserProperty("attempt", Integer.toString(job.getAttempts() + 1));
        return message;
    }

    /** Asks the name server for its brokers: none registered means nothing could take a send. */
    @Override
    public void probe(long timeoutMs) throws Exception {
        ClusterInfo cluster = producer.getDefaultMQProducerImpl()
                .getMqClientFactory()
                .getMQClientAPIImpl()
                .getBrokerClusterInfo(timeoutMs);
        if (cluster.getBrokerAddrTable() == null || cluster.getBrokerAddrTable().isEmpty()) {
            throw new IllegalStateException("no broker registered at " + settings.namesrvAddr());
        }
    }

    @Override
    protected void closeClient() {
        producer.shutdown();
    }
}
