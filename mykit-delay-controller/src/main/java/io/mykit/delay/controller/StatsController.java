package io.mykit.delay.controller;

import io.mykit.delay.queue.stats.StatsService;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Counts, due times and lateness for operators and the console; reading is open, recounting is {@link AdminOnly}. */
@RestController
@DataPlane
public class StatsController {
    private final StatsService stats;

    public StatsController(StatsService stats) {
        this.stats = stats;
    }

    // GET /stats  every topic's pending / ready / in-flight / dead, next due, oldest overdue, recent lateness;
    // at most StatsService.MAX_TOPIC_LINES topic lines (topicsCut says when more were left out)
    // GET /stats?limit=100&after=<last topic>&prefix=<p>  one page of the topic lines, by name; totals stay whole
    // GET /stats?topic=t  the same as /stats/{topic} (for a topic named like a sub-route, "due")
    @Operation(
            summary = "Counts of every topic",
            description = "Pending, ready, in-flight and dead jobs per topic, "
                    + "next due and oldest overdue time, recent lateness; at most 1,000 topic lines, the first "
                    + "by name (topicsCut true when more were left out, topicCount says how many). limit, after "
                    + "and prefix page the topic lines: at most limit lines of the topics starting with prefix, "
                    + "the first after the topic named by after; topicCount then counts the prefix's topics and "
                    + "moreTopics those after the page, while the totals still cover every topic. With ?topic= "
                    + "the same as GET /stats/{topic}. Read from counters, never a scan of the jobs.")
    @GetMapping("/stats")
    public ApiResponse<Object> overview(
            @RequestParam(value = "topic", required = false) String topic,
            @RequestParam(value = "limit", required = false)
                    @Parameter(
                            description = "topic lines in this answer",
                            schema =
                                    @Schema(
                                            type = "integer",
                                            format = "int32",
                                            minimum = "1",
                                            maximum = "" + StatsService.MAX_TOPIC_LINES,
                                            defaultValue = "" + StatsService.MAX_TOPIC_LINES))
                    Integer limit,
            @RequestParam(value = "after", required = false)
                    @Parameter(description = "the last topic of the previous page", example = "order-close")
                    String after,
            @RequestParam(value = "prefix", required = false)
                    @Parameter(description = "only topics whose name starts with it", example = "order-")
                    String prefix,
            HttpServletRequest request) {
        if (topic != null) {
            return ApiResponse.ok(topicOf(topic, request));
        }
        Caller caller = Caller.of(request);
        caller.requireKnown();
        StatsService.Overview overview =
                caller.scoped() ? stats.overview(caller.tenant().topics()) : stats.overview();
        return ApiResponse.ok(overview.page(prefix, after, limit == null ? StatsService.MAX_TOPIC_LINES : limit));
    }

    /** A topic outside the caller's patterns answers as a topic nobody ever used. */
    private StatsService.TopicStats topicOf(String topic, HttpServletRequest request) {
        Caller caller = Caller.of(request);
        caller.requireKnown();
        return caller.allows(topic) ? stats.topic(topic) : stats.unusedTopic(topic);
    }

    // GET /stats/{topic}  one topic's counts, with its sampled next due and oldest overdue time
    @Operation(summary = "Counts of one topic", description = "With its sampled next due and oldest overdue time.")
    @GetMapping("/stats/{topic}")
    public ApiResponse<StatsService.TopicStats> topic(@PathVariable("topic") String topic, HttpServletRequest request) {
        return ApiResponse.ok(topicOf(topic, request));
    }

    // GET /stats/due?minutes=60  waiting jobs due per minute from now on, and those overdue
    @Operation(
            summary = "Waiting jobs due per minute",
            description = "From now on, for the console's chart; and those overdue.")
    @GetMapping("/stats/due")
    public ApiResponse<StatsService.DueTimes> due(
            @RequestParam(value = "minutes", defaultValue = "60") int minutes, HttpServletRequest request) {
        Caller caller = Caller.of(request);
        caller.requireKnown();
        if (caller.scoped()) {
            throw TenantAccessException.adminOnly("due times across all topics");
        }
        return ApiResponse.ok(stats.dueTimes(minutes));
    }

    // POST /stats/recount  counts every bucket's jobs afresh (after an upgrade next to older nodes)
    @Operation(
            summary = "Count every bucket's jobs afresh",
            description = "After an upgrade beside older nodes, which do not keep the counters.")
    @AdminOnly
    @PostMapping("/stats/recount")
    public ApiResponse<Map<String, Long>> recount() {
        return ApiResponse.ok(Map.of("counted", stats.recount()));
    }
}
