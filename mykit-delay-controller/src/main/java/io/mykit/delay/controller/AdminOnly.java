package io.mykit.delay.controller;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an operator handler (or every handler of a controller): {@link AdminGuard} lets a request run it only when the
 * caller may. A new admin route needs nothing else.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface AdminOnly {
    /**
     * With tenants configured, a tenant calling with its own token may run the handler on a topic its patterns allow
     * (the handler's {@code {topic}} path variable), as the admin may on every topic.
     */
    boolean ownTopicTenant() default false;
}
