package io.mykit.delay.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * What each scenario pushed and what of it arrived where it was sent (puller, broker consumer or Redis), kept apart
 * from the printed table so the quick-mode test can check every job arrived without reading any speed. Thread-safe.
 */
final class Arrivals {
    /** One scenario's count: jobs pushed, distinct jobs that arrived, pushed jobs that did not, arrivals not pushed. */
    record Arrival(String scenario, long pushed, long arrived, long missing, long unexpected) {
        boolean complete() {
            return pushed > 0 && arrived == pushed && missing == 0 && unexpected == 0;
        }

        @Override
        public String toString() {
            return String.format(
                    "%s: pushed %d, arrived %d, missing %d, unexpected %d",
                    scenario, pushed, arrived, missing, unexpected);
        }
    }

    private final List<Arrival> arrivals = new ArrayList<>();

    synchronized void record(String scenario, long pushed, long arrived, long missing, long unexpected) {
        arrivals.add(new Arrival(scenario, pushed, arrived, missing, unexpected));
    }

    synchronized List<Arrival> all() {
        return List.copyOf(arrivals);
    }
}
