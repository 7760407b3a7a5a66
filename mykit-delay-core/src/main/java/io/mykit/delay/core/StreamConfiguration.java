package io.mykit.delay.core;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mykit.delay.common.tenant.LiveTenants;
import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.config.StreamProperties;
import io.mykit.delay.controller.BrowserGuard;
import io.mykit.delay.controller.StreamHandler;
import io.mykit.delay.controller.StreamHandshake;
import io.mykit.delay.controller.StreamSettings;
import io.mykit.delay.controller.TenantEvents;
import io.mykit.delay.controller.TenantLimits;
import io.mykit.delay.queue.service.DelayQueueService;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;

/** {@code GET /stream}: the WebSocket consumers (docs/api.md "Stream"). */
@Configuration(proxyBeanMethods = false)
@EnableWebSocket
public class StreamConfiguration {

    @Bean
    public StreamSettings streamSettings(DelayProperties properties) {
        StreamProperties stream = properties.getStream();
        return new StreamSettings(
                stream.getMaxStreams(),
                stream.getMaxTopics(),
                stream.getMaxCredit(),
                stream.getHeartbeat().toMillis(),
                stream.getIdleTimeout().toMillis(),
                stream.getSendTimeout().toMillis(),
                stream.getMaxSendBufferBytes(),
                stream.getMaxFrameBytes(),
                properties.getLimits().getMaxBatchSize());
    }

    @Bean(destroyMethod = "close")
    public StreamHandler streamHandler(
            DelayQueueService queue,
            ObjectMapper mapper,
            StreamSettings settings,
            TenantEvents events,
            LiveTenants live) {
        StreamHandler handler = new StreamHandler(queue, mapper, settings, events);
        // a token taken out must not keep the streams it opened: they end at the reload (1008), their jobs back
        live.onReplace(handler::endRevoked);
        return handler;
    }

    /**
     * Spring's own origin check (same origin only, an empty 403) is replaced by the gateway's browser rules, which
     * {@link StreamHandshake} applies with the data plane's JSON refusals: see BrowserGuard.
     */
    @Bean
    public WebSocketConfigurer streamRoute(
            StreamHandler handler,
            DelayQueueService queue,
            TenantLimits limits,
            BrowserGuard browsers,
            LiveTenants live,
            ObjectMapper mapper,
            StreamSettings settings) {
        StreamHandshake handshake = new StreamHandshake(queue, limits, browsers, live, mapper, settings, handler);
        return registry -> registry.addHandler(handler, "/stream")
                .addInterceptors(handshake)
                .setAllowedOriginPatterns("*");
    }
}
