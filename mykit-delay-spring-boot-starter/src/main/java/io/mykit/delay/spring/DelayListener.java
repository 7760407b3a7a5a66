package io.mykit.delay.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method of a bean that handles the due jobs of pull topics; the starter runs one stream consumer per method,
 * from the end of the context's start until its close. Parameters, in any order, each at most once: {@code String} (the
 * body), {@link io.mykit.delay.client.ReceivedJob} and {@link io.mykit.delay.client.Acknowledgement}.
 *
 * <p>Without an Acknowledgement parameter, returning finishes the job, throwing
 * {@link io.mykit.delay.client.NonRetryableException} buries it as a dead letter, and any other exception releases it
 * with a back-off until its tries are spent. With one, the method acknowledges each job itself and nothing is done to
 * it automatically.
 *
 * <p>Every value may be a {@code ${...}} placeholder; an empty value takes {@code mykit.delay.client.listener.*}.
 *
 * <pre>
 * &#64;DelayListener(topic = "order-close", concurrency = "8")
 * void close(String body) { orders.close(body); }
 * </pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface DelayListener {
    /** The pull topic (or {@link #topics()}); a placeholder may name several, comma-separated. */
    String topic() default "";

    /** The pull topics (or {@link #topic()}). */
    String[] topics() default {};

    /** Handler threads (default {@code mykit.delay.client.listener.concurrency}). */
    String concurrency() default "";

    /** Jobs held at once, neither finished nor released (default {@code mykit.delay.client.listener.credit}). */
    String credit() default "";

    /** Reservation of each job, e.g. {@code 30s} or plain ms (default {@code mykit.delay.client.listener.ttr}). */
    String ttr() default "";

    /** The listener's name in health details and metrics (default {@code <bean name>.<method name>}). */
    String id() default "";
}
