package io.mykit.delay.queue.dispatch;

/** The delivery target each topic's due jobs go to, by the routes of {@code mykit.delay.dispatch}. */
@FunctionalInterface
public interface RouteLookup {

    /** The target of {@code topic}: its route's, or the default target when no route names the topic. */
    DeliveryTarget route(String topic);
}
