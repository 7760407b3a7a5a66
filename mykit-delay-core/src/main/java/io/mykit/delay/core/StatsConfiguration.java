package io.mykit.delay.core;

import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.stats.DeadLetterCounts;
import io.mykit.delay.queue.stats.LatenessRecorder;
import io.mykit.delay.queue.stats.StatsService;
import io.mykit.delay.queue.stats.StoreCounters;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.store.RedisNodes;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** GET /stats and the web console at /console (static files under {@code static/console} in the jar). */
@Configuration(proxyBeanMethods = false)
public class StatsConfiguration {

    @Bean
    public LatenessRecorder latenessRecorder(Clock clock) {
        return new LatenessRecorder(clock);
    }

    @Bean
    public StatsService statsService(
            RedisNodes redis, RedisDelayStore store, Journal journal, LatenessRecorder lateness, Clock clock) {
        return new StatsService(
                new StoreCounters(redis, store.keys()), new DeadLetterCounts(journal, clock), lateness, clock);
    }

    /** /console and /console/ show the page (/ sends there); its scripts and styles are served as they are. */
    @Bean
    public WebMvcConfigurer consolePage() {
        return new WebMvcConfigurer() {
            @Override
            public void addViewControllers(ViewControllerRegistry registry) {
                registry.addViewController("/console").setViewName("forward:/console/index.html");
                registry.addViewController("/console/").setViewName("forward:/console/index.html");
                // the gateway's root has no API of its own: whoever opens it is most likely looking for the console
                registry.addRedirectViewController("/", "/console/").setStatusCode(HttpStatus.FOUND);
            }
        };
    }
}
