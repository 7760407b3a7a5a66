package io.mykit.delay.core;

import io.mykit.delay.config.ActiveMqProperties;
import io.mykit.delay.config.DispatchProperties;
import io.mykit.delay.config.LimitsProperties;
import io.mykit.delay.config.PullProperties;
import io.mykit.delay.config.RocketMqProperties;
import io.mykit.delay.queue.dispatch.broker.ActiveMqSettings;
import io.mykit.delay.queue.dispatch.broker.RocketMqSettings;
import io.mykit.delay.queue.dispatch.broker.SenderSettings;
import io.mykit.delay.queue.service.JobLimits;
import io.mykit.delay.queue.service.PullLimits;

/** The engine's settings records, read from the bound {@code mykit.delay.*} tree: the engine never sees the tree. */
final class EngineSettings {
    private EngineSettings() {}

    static JobLimits jobLimits(LimitsProperties limits) {
        return new JobLimits(
                limits.getMaxBodyBytes(), limits.getMaxBatchSize(), limits.getMaxDelay(), limits.getDefaultTries());
    }

    static PullLimits pullLimits(PullProperties pull) {
        return new PullLimits(pull.getDefaultTtr(), pull.getMaxTtr(), pull.getMaxTimeout());
    }

    static SenderSettings senders(DispatchProperties dispatch) {
        return new SenderSettings(
                dispatch.getSenders(), dispatch.getBacklog(), dispatch.getBacklogWait(), dispatch.getStopWait());
    }

    static ActiveMqSettings activeMq(ActiveMqProperties activemq) {
        return new ActiveMqSettings(
                activemq.getBrokerUrl(),
                activemq.getUsername(),
                activemq.getPassword(),
                "topic".equals(activemq.getDestinationType()),
                activemq.getDestinationPrefix(),
                activemq.getSendTimeout(),
                activemq.isConfirmEachSend(),
                "job-json".equals(activemq.getPayload()));
    }

    static RocketMqSettings rocketMq(RocketMqProperties rocketmq) {
        return new RocketMqSettings(
                rocketmq.getNamesrvAddr(),
                rocketmq.getProducerGroup(),
                rocketmq.getTopicPrefix(),
                rocketmq.getTopicMapping(),
                rocketmq.getSendTimeout());
    }
}
