package io.mykit.delay.controller;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.service.DeadLetterService;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;
import java.util.Map;

/** Jobs that used up their tries or their ttl; anyone may list them, changing them is {@link AdminOnly}. */
@RestController
public class DeadLetterController {
    private final DeadLetterService dead;

    public DeadLetterController(DeadLetterService dead) {
        this.dead = dead;
    }

    /** Optional body of respawn/drop: only these ids; absent = every dead job of the topic. */
    public record IdList(List<String> ids) {
    }

    // GET /dead/{topic}?after=<lastId>&limit=<n>  one page of dead jobs, by id
    @GetMapping("/dead/{topic}")
    public ApiResponse<List<Job>> list(@PathVariable("topic") String topic,
                                       @RequestParam(value = "after", required = false) String after,
                                       @RequestParam(value = "limit", defaultValue = "100") int limit) {
        return ApiResponse.ok(dead.list(topic, after, limit));
    }

    // POST /dead/{topic}/respawn  body {"ids":[...]} optional -> how many were put back, due now
    @AdminOnly
    @PostMapping("/dead/{topic}/respawn")
    public ApiResponse<Map<String, Integer>> respawn(@PathVariable("topic") String topic,
                                                     @RequestBody(required = false) IdList ids) {
        return ApiResponse.ok(Map.of("respawned", dead.respawn(topic, ids == null ? null : ids.ids())));
    }

    // DELETE /dead/{topic}  body {"ids":[...]} optional -> how many were dropped
    @AdminOnly
    @DeleteMapping("/dead/{topic}")
    public ApiResponse<Map<String, Integer>> drop(@PathVariable("topic") String topic,
                                                  @RequestBody(required = false) IdList ids) {
        return ApiResponse.ok(Map.of("dropped", dead.drop(topic, ids == null ? null : ids.ids())));
    }
}
