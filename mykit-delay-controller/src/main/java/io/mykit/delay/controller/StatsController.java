package io.mykit.delay.controller;

import io.mykit.delay.queue.stats.StatsService;
import io.swagger.v3.oas.annotations.Operation;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Counts, due times and lateness for operators and the console; reading is open, recounting is {@link AdminOnly}. */
@RestController
public class StatsController {
    private final StatsService stats;

    public StatsController(StatsService stats) {
        this.stats = stats;
    }

    // GET /stats  every topic's pending / ready / in-flight / dead, next due, oldest overdue, recent lateness
    // GET /stats?topic=t  the same as /stats/{topic} (for a topic named like a sub-route, "due")
    @Operation(
            summary = "Counts of every topic",
            description = "Pending, ready, in-flight and dead jobs per topic, "
                    + "next due and oldest overdue time, recent lateness; with ?topic= the same as "
                    + "GET /stats/{topic}. Read from "
                    + "counters, never a scan of the jobs.")
    @GetMapping("/stats")
    public ApiResponse<Object> overview(@RequestParam(value = "topic", required = false) String topic) {
        return topic == null ? ApiResponse.ok(stats.overview()) : ApiResponse.ok(stats.topic(topic));
    }

    // GET /stats/{topic}  one topic's counts, with its sampled next due and oldest overdue time
    @Operation(summary = "Counts of one topic", description = "With its sampled next due and oldest overdue time.")
    @GetMapping("/stats/{topic}")
    public ApiResponse<StatsService.TopicStats> topic(@PathVariable("topic") String topic) {
        return ApiResponse.ok(stats.topic(topic));
    }

    // GET /stats/due?minutes=60  waiting jobs due per minute from now on, and those overdue
    @Operation(
            summary = "Waiting jobs due per minute",
            description = "From now on, for the console's chart; and " + "those overdue.")
    @GetMapping("/stats/due")
    public ApiResponse<StatsService.DueTimes> due(@RequestParam(value = "minutes", defaultValue = "60") int minutes) {
        return ApiResponse.ok(stats.dueTimes(minutes));
    }

    // POST /stats/recount  counts every bucket's jobs afresh (after an upgrade next to older nodes)
    @Operation(
            summary = "Count every bucket's jobs afresh",
            description = "After an upgrade beside older nodes, " + "which do not keep the counters.")
    @AdminOnly
    @PostMapping("/stats/recount")
    public ApiResponse<Map<String, Long>> recount() {
        return ApiResponse.ok(Map.of("counted", stats.recount()));
    }
}
