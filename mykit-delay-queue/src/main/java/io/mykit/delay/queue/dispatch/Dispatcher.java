package io.mykit.delay.queue.dispatch;

import io.mykit.delay.common.model.Job;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Routes each due job to its topic's delivery target. */
public class Dispatcher {
    private final Function<String, DeliveryTarget> routeOf;

    public Dispatcher(Function<String, DeliveryTarget> routeOf) {
        this.routeOf = routeOf;
    }

    public void dispatch(int bucket, List<Job> jobs) {
        Map<DeliveryTarget, List<Job>> byTarget = jobs.stream().collect(
                Collectors.groupingBy(job -> routeOf.apply(job.getTopic()), LinkedHashMap::new, Collectors.toList()));
        byTarget.forEach((target, batch) -> target.deliver(bucket, batch));
    }
}
