package io.mykit.delay.core.tenants;

import java.util.List;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * A tenant's or the admin's setting that cannot be bound is reported by its name and where it came from, never by its
 * value: a wrapped line can put a token under any key, and Boot's own report prints the value. Asked before Boot's.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
public class SecretSettingFailureAnalyzer extends AbstractFailureAnalyzer<BindException> {
    private static final List<String> SECRET_PREFIXES = List.of("mykit.delay.tenants", "mykit.delay.admin");

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
        String name = cause.getName().toString();
        if (SECRET_PREFIXES.stream().noneMatch(name::startsWith)) {
            return null;
        }
        ConfigurationProperty property = cause.getProperty();
        String origin = property == null || property.getOrigin() == null ? "" : " (from " + property.getOrigin() + ")";
        String key = property == null ? name : property.getName().toString();
        return new FailureAnalysis(
                "Failed to bind " + key + origin + " to " + cause.getTarget().getType()
                        + "; its value is not shown, since it may hold a token",
                "Fix the value of " + key + " in the application's configuration.",
                null); // no cause: the messages of Boot's nested exceptions carry the value
    }
}
