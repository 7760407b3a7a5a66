package io.mykit.delay.controller;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.service.DeadLetterService;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Jobs that used up their tries or their ttl; anyone may list them, changing them is {@link AdminOnly}, or with tenants
 * configured the right of the tenant whose topic it is.
 */
@RestController
@DataPlane
@Tag(name = "dead letters", description = "Jobs that used up their tries or ttl")
public class DeadLetterController {
    private final DeadLetterService dead;
    private final TenantLimits limits;

    public DeadLetterController(DeadLetterService dead, TenantLimits limits) {
        this.dead = dead;
        this.limits = limits;
    }

    /** Optional body of respawn/drop: only these ids; absent = every dead job of the topic. */
    public record IdList(
            @Schema(example = "[\"order-42-close\"]") List<String> ids) {}

    /** What a respawn did. */
    public record Respawned(@Schema(example = "3") int respawned) {}

    /** What a drop did. */
    public record Dropped(@Schema(example = "3") int dropped) {}

    // GET /dead/{topic}?after=<lastId>&limit=<n>  one page of dead jobs, by id
    @Operation(
            summary = "List dead jobs of a topic",
            description = "Ordered by id; the next page starts after the last id of this one.")
    @GetMapping("/dead/{topic}")
    public ApiResponse<List<Job>> list(
            @PathVariable("topic") String topic,
            @RequestParam(value = "after", required = false) String after,
            @RequestParam(value = "limit", defaultValue = "100") int limit,
            HttpServletRequest request) {
        Caller caller = Caller.of(request);
        caller.requireTopic(topic);
        if (!caller.namespaced()) {
            return ApiResponse.ok(dead.list(topic, after, limit));
        }
        return ApiResponse.ok(OwnJobs.ownPage(
                caller, after, limit, (from, n) -> dead.list(topic, from, n), Job::getId, caller::shown));
    }

    // POST /dead/{topic}/respawn  body {"ids":[...]} optional -> how many were put back, due now
    @AdminOnly(ownTopicTenant = true)
    @Operation(
            summary = "Put dead jobs back, due now",
            description = "Only the listed ids, or every dead job of the topic when the body is absent.")
    @PostMapping("/dead/{topic}/respawn")
    public ApiResponse<Respawned> respawn(
            @PathVariable("topic") String topic,
            @RequestBody(required = false) IdList ids,
            HttpServletRequest request) {
        List<String> only = storedIds(request, ids);
        // the jobs put back take room under the topic's tenant's max-pending, whoever asks (429 when they do not fit)
        try (TenantLimits.Reservation room =
                limits.takeRespawn(Caller.of(request), topic, upTo -> dead.countDead(topic, only, upTo))) {
            int respawned = dead.respawn(topic, only, room.jobs());
            room.stored(respawned);
            return ApiResponse.ok(new Respawned(respawned));
        }
    }

    // DELETE /dead/{topic}  body {"ids":[...]} optional -> how many were dropped
    @AdminOnly(ownTopicTenant = true)
    @Operation(
            summary = "Drop dead jobs",
            description = "Only the listed ids, or every dead job of the topic when the body is absent.")
    @DeleteMapping("/dead/{topic}")
    public ApiResponse<Dropped> drop(
            @PathVariable("topic") String topic,
            @RequestBody(required = false) IdList ids,
            HttpServletRequest request) {
        return ApiResponse.ok(new Dropped(dead.drop(topic, storedIds(request, ids))));
    }

    /** The stored ids the caller's list names: those of its namespace, and of its topics outside any namespace. */
    private List<String> storedIds(HttpServletRequest request, IdList ids) {
        List<String> named = ids == null ? null : ids.ids();
        dead.requireIdCount(named);
        return OwnJobs.storedIds(Caller.of(request), "ids", named);
    }
}
