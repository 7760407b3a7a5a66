package io.mykit.delay.client;

import java.time.Duration;
import java.util.List;

/** What a {@link DelayConsumer.Builder} collected, checked. */
record ConsumerSettings(
        DelayClient client,
        List<String> topics,
        JobHandler handler,
        ManualJobHandler manualHandler,
        int concurrency,
        int credit,
        Duration ttr,
        int finishBatchSize,
        Duration finishFlushInterval,
        Backoff releaseBackoff,
        Duration shutdownTimeout,
        Duration pingInterval,
        Duration silenceTimeout,
        Backoff reconnectBackoff,
        Duration refusedBackoff,
        ConsumerListener listener) {}
