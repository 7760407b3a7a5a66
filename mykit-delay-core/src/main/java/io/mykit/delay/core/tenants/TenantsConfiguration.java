package io.mykit.delay.core.tenants;

import io.micrometer.core.instrument.MeterRegistry;
import io.mykit.delay.common.tenant.LiveTenants;
import io.mykit.delay.common.tenant.Tenant;
import io.mykit.delay.common.tenant.TenantDirectory;
import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.config.TenantProperties;
import io.mykit.delay.config.Tenants;
import io.mykit.delay.config.TenantsFile;
import io.mykit.delay.controller.CallerFilter;
import io.mykit.delay.controller.PollShare;
import io.mykit.delay.controller.TenantEvents;
import io.mykit.delay.controller.TenantGuard;
import io.mykit.delay.controller.TenantLimits;
import io.mykit.delay.queue.dispatch.pull.PullTarget;
import io.mykit.delay.queue.stats.StatsService;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Tenants: the directory in force, the tenants file's watch, and who calls each request. */
@Configuration(proxyBeanMethods = false)
public class TenantsConfiguration {
    private static final Logger log = LoggerFactory.getLogger(TenantsConfiguration.class);
    /** How often the tenants file's modification time is looked at. */
    static final long FILE_CHECK_MS = 2_000;

    @Bean
    public LiveTenants liveTenants(DelayProperties properties) throws java.io.IOException {
        String adminToken = properties.getAdmin().getToken();
        Map<String, TenantProperties> all = properties.getTenants();
        if (properties.getTenantsFile() != null) {
            // the start-up check read it already; from now on tenantsFileWatch reads it again on each change
            all = Tenants.merged(all, TenantsFile.read(properties.getTenantsFile()));
        }
        LiveTenants live = new LiveTenants(Tenants.directory(all, adminToken));
        List<String> crossing = TenantRoutes.problems(properties, live.directory());
        if (!crossing.isEmpty()) {
            throw new IllegalStateException("Invalid mykit-delay configuration:\n  " + String.join("\n  ", crossing));
        }
        describe(live.directory());
        return live;
    }

    private static void describe(TenantDirectory directory) {
        if (!directory.enabled()) {
            log.info("no tenant configured: data-plane calls need no token");
            return;
        }
        log.info(
                "tenants {}: data-plane calls need a tenant's token (Authorization: Bearer) or the admin token",
                directory.tenants());
        directory
                .tokenless()
                .ifPresent(open -> log.warn("tenant '" + Tenant.DEFAULT + "' takes calls without a token: any caller"
                        + " who sends none may use its topics " + open.topics()
                        + "; give it a token once its clients send one"));
    }

    /** Watches the tenants file, when one is set, on one daemon thread. */
    @Bean(destroyMethod = "shutdownNow")
    public ScheduledExecutorService tenantsFileWatch(DelayProperties properties, LiveTenants live, PullTarget pull) {
        // a token taken out must not keep the long-polls it opened: they end at the reload, with no job
        live.onReplace(pull::endRevokedPolls);
        ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "tenants-file-watch");
            thread.setDaemon(true);
            return thread;
        });
        if (properties.getTenantsFile() != null) {
            TenantsFileWatch pass = new TenantsFileWatch(properties, live);
            watch.scheduleWithFixedDelay(pass, FILE_CHECK_MS, FILE_CHECK_MS, TimeUnit.MILLISECONDS);
        }
        return watch;
    }

    @Bean
    public TenantEvents tenantEvents(MeterRegistry registry) {
        return new MicrometerTenantEvents(registry);
    }

    @Bean
    public TenantLimits tenantLimits(
            StatsService stats, TenantEvents events, LiveTenants live, DelayProperties properties) {
        PollShare share = new PollShare(live, properties.getPull().getMaxWaitingPolls());
        return new TenantLimits(stats, events, System::nanoTime, live::directory, share);
    }

    /**
     * Before the request guard (+10), so a caller to refuse is known before anything of its body is read, and before
     * the direct routes (+20): they check the caller it resolves.
     */
    @Bean
    public FilterRegistrationBean<CallerFilter> callerFilter(LiveTenants live, TenantEvents events) {
        FilterRegistrationBean<CallerFilter> registration =
                new FilterRegistrationBean<>(new CallerFilter(live, events));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 5);
        return registration;
    }

    @Bean
    public WebMvcConfigurer tenantGuardRegistration() {
        return new WebMvcConfigurer() {
            @Override
            public void addInterceptors(InterceptorRegistry registry) {
                registry.addInterceptor(new TenantGuard());
            }
        };
    }
}
