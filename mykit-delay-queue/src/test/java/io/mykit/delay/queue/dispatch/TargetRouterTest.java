package io.mykit.delay.queue.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mykit.delay.common.model.Job;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TargetRouterTest {

    private record Named(String name) implements DeliveryTarget {
        @Override
        public void deliver(int bucket, List<Job> jobs) {
            throw new UnsupportedOperationException("routing only");
        }
    }

    private final Map<String, DeliveryTarget> targets =
            Map.of("pull", new Named("pull"), "rocketmq", new Named("rocketmq"), "activemq", new Named("activemq"));

    @Test
    void exact_beats_longest_pattern_beats_shorter_pattern_beats_default() {
        Map<String, String> routes = new LinkedHashMap<>();
        routes.put("order-*", "rocketmq");
        routes.put("order-close-*", "activemq");
        routes.put("order-close-vip", "pull");
        routes.put("*-audit", "activemq");
        TargetRouter router = new TargetRouter("pull", routes, targets);
        assertThat(router.route("order-pay").name()).isEqualTo("rocketmq");
        assertThat(router.route("order-close-1").name()).isEqualTo("activemq");
        assertThat(router.route("order-close-vip").name()).isEqualTo("pull");
        assertThat(router.route("user-audit").name()).isEqualTo("activemq");
        assertThat(router.route("other").name()).isEqualTo("pull");
        assertThat(router.route("order.x").name())
                .as("pattern chars are literal but *")
                .isEqualTo("pull");
    }

    @Test
    void a_route_to_an_unconfigured_target_fails_at_construction() {
        assertThatThrownBy(() -> new TargetRouter("pull", Map.of("a", "kafka"), targets))
                .hasMessageContaining("kafka");
        assertThatThrownBy(() -> new TargetRouter("nope", Map.of(), targets)).hasMessageContaining("nope");
    }

    @Test
    void remembers_a_bounded_number_of_topics_however_many_come() {
        TargetRouter router = new TargetRouter("pull", Map.of("order-*", "rocketmq"), targets);
        for (int i = 0; i < 3 * TargetRouter.MAX_CACHED_TOPICS; i++) {
            assertThat(router.route("order-" + i).name()).isEqualTo("rocketmq");
        }
        assertThat(router.cachedTopics()).isBetween(1, TargetRouter.MAX_CACHED_TOPICS);
    }
}
