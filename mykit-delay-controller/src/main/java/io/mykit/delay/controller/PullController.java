package io.mykit.delay.controller;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.mykit.delay.common.error.InvalidJobException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.tenant.LiveTenants;
import io.mykit.delay.queue.dispatch.pull.PendingPoll;
import io.mykit.delay.queue.service.DelayQueueService;
import io.mykit.delay.queue.service.FinishReport;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** HTTP pull consumers: reserve a due job, then finish it. */
@RestController
@DataPlane
@Tag(name = "pull", description = "HTTP pull consumers: reserve due jobs of a pull topic, then finish them")
public class PullController {
    private static final long ASYNC_BACKSTOP_MS = 10_000;

    private final DelayQueueService queue;
    private final TenantLimits limits;
    private final ObjectWriter responseWriter;
    private final JsonArray<String> idArray;
    private final LiveTenants tenants;

    public PullController(DelayQueueService queue, TenantLimits limits, ObjectMapper mapper, LiveTenants tenants) {
        this.queue = queue;
        this.limits = limits;
        this.responseWriter = mapper.writerFor(ApiResponse.class);
        this.idArray = new JsonArray<>(mapper, String.class);
        this.tenants = tenants;
    }

    /** What a release did. */
    public record Released(
            @Schema(example = "order-42-close") String jobId,

            @Schema(description = "true when the job was out of tries or ttl and is now dead")
            boolean dead) {}

    // GET /get/{topic}?ttr=<ms>&timeout=<ms>  reserves one due job for ttr; data is null when none came within timeout
    @Operation(
            summary = "Reserve one due job",
            description = "Long-polls up to timeout ms; the job is reserved for "
                    + "ttr ms, then comes back unless finished. data is null when none came. A topic the "
                    + "routes send to a broker or the log is refused with 409.")
    @ChangesState
    @GetMapping("/get/{topic}")
    public ApiResponse<Job> get(
            @PathVariable("topic") String topic,
            @RequestParam(value = "ttr", required = false) Long ttr,
            @RequestParam(value = "timeout", required = false) Long timeout,
            HttpServletRequest request,
            HttpServletResponse response)
            throws IOException {
        poll(topic, 1, ttr, timeout, DirectPollAnswer.single(request, response, responseWriter), request);
        // answered by DirectPollAnswer; the declared type is what the API document shows
        return null;
    }

    // GET /get/{topic}/batch?count=<n>&ttr=<ms>&timeout=<ms>  reserves up to count due jobs for ttr; waits up to
    // timeout for the first one, then answers with what is ready; data is [] when none came
    @Operation(
            summary = "Reserve up to count due jobs",
            description = "Waits up to timeout ms for the first one, "
                    + "then answers with what is ready; data is [] when none came. A topic the routes send to a "
                    + "broker or the log is refused with 409.")
    @ChangesState
    @GetMapping("/get/{topic}/batch")
    public ApiResponse<List<Job>> getBatch(
            @PathVariable("topic") String topic,
            @RequestParam(value = "count") int count,
            @RequestParam(value = "ttr", required = false) Long ttr,
            @RequestParam(value = "timeout", required = false) Long timeout,
            HttpServletRequest request,
            HttpServletResponse response)
            throws IOException {
        // not a DeferredResult: its answer ran the whole filter chain and handler lookup again on another thread
        poll(topic, count, ttr, timeout, DirectPollAnswer.batch(request, response, responseWriter), request);
        // answered by DirectPollAnswer; the declared type is what the API document shows
        return null;
    }

    /** Registers a long-poll in one of the caller's slots, given back when the answer ends. */
    private void poll(
            String topic, int count, Long ttr, Long timeout, DirectPollAnswer answer, HttpServletRequest request)
            throws IOException {
        Caller caller = Caller.of(request);
        caller.requireTopic(topic);
        Runnable slot = limits.takePoll(caller);
        boolean waiting = false;
        try {
            if (caller.scoped()) {
                String tenant = caller.tenant().name();
                answer.whenAnswered(jobs -> limits.events().pulled(tenant, jobs), slot);
                BooleanSupplier held = CallerFilter.stillHolds(tenants, request, caller, topic);
                answer.revokedWhen(() -> !held.getAsBoolean());
            } else {
                answer.whenAnswered(jobs -> {}, slot);
            }
            PendingPoll poll = queue.reserveAsync(topic, count, ttr, timeout, answer);
            waiting = answer.afterRegistered(poll, backstopMs(timeout));
        } finally {
            if (!waiting) {
                slot.run();
            }
        }
    }

    private static long backstopMs(Long timeout) {
        return (timeout == null ? 0 : Math.max(0, timeout)) + ASYNC_BACKSTOP_MS;
    }

    // POST /finish/batch  body: ["jobId", ...] -> {"finished":[ids], "refused":{id: reason}}
    @Operation(summary = "Acknowledge many pulled jobs")
    @io.swagger.v3.oas.annotations.parameters.RequestBody(
            required = true,
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                            array = @ArraySchema(schema = @Schema(type = "string"), maxItems = 1000)))
    @PostMapping(value = "/finish/batch", consumes = MediaType.APPLICATION_JSON_VALUE)
    public ApiResponse<FinishReport> finishBatch(HttpServletRequest request) {
        Caller.of(request).requireKnown();
        return finishBatch(readIds(request), request);
    }

    /** The body of /finish/batch, read element by element: past max-batch-size ids it stops (400). */
    List<String> readIds(HttpServletRequest request) {
        int max = queue.limits().maxBatchSize();
        return idArray.read(request, max, () -> new InvalidJobException("jobIds", "must hold 1.." + max + " job ids"));
    }

    /** Finishes the caller's own jobs of these ids. */
    ApiResponse<FinishReport> finishBatch(List<String> jobIds, HttpServletRequest request) {
        return ApiResponse.ok(OwnJobs.finishOwn(Caller.of(request), queue, jobIds, queue::finishAll));
    }

    // POST /release?jobId=&delay=<ms>  gives a reserved job back, due again after delay (default 0); counts as a try,
    // so a job out of tries or ttl is buried as dead instead -> {"jobId":..,"dead":true|false}
    @Operation(summary = "Give a reserved job back", description = "Due again after delay ms; counts as a try.")
    @PostMapping("/release")
    public ApiResponse<Released> release(
            @RequestParam("jobId") String jobId,
            @RequestParam(value = "delay", required = false) Long delay,
            HttpServletRequest request) {
        boolean dead = OwnJobs.on(Caller.of(request), queue, jobId, stored -> queue.release(stored, delay));
        return ApiResponse.ok(new Released(jobId, dead));
    }

    // POST /touch?jobId=&ttr=<ms>  extends a reservation to ttr from now (default pull.default-ttr)
    @Operation(summary = "Extend a reservation to ttr ms from now")
    @PostMapping("/touch")
    public ApiResponse<String> touch(
            @RequestParam("jobId") String jobId,
            @RequestParam(value = "ttr", required = false) Long ttr,
            HttpServletRequest request) {
        OwnJobs.on(Caller.of(request), queue, jobId, stored -> {
            queue.touch(stored, ttr);
            return stored;
        });
        return ApiResponse.ok(jobId);
    }

    // GET /finish?jobId=  acknowledges a reserved job
    @Operation(summary = "Acknowledge a pulled job (legacy form of POST /jobs/{id}/finish)", deprecated = true)
    @ChangesState
    @GetMapping("/finish")
    public ApiResponse<String> finish(@RequestParam("jobId") String jobId, HttpServletRequest request) {
        OwnJobs.on(Caller.of(request), queue, jobId, stored -> {
            queue.finish(stored);
            return stored;
        });
        return ApiResponse.ok(jobId);
    }
}
