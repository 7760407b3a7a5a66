package io.mykit.delay.controller;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.mykit.delay.common.error.InvalidJobException;
import io.mykit.delay.common.error.JobNotFoundException;
import io.mykit.delay.common.error.JobStateConflictException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.tenant.LiveTenants;
import io.mykit.delay.common.tenant.Tenant;
import io.mykit.delay.common.tenant.TenantDirectory;
import io.mykit.delay.common.tenant.TopicPattern;
import io.mykit.delay.common.util.JobIds;
import io.mykit.delay.queue.service.CancelReport;
import io.mykit.delay.queue.service.Cancellation;
import io.mykit.delay.queue.service.DelayQueueService;
import io.mykit.delay.queue.service.JobValidator;
import io.mykit.delay.queue.service.JobView;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Push, cancel and look up jobs. */
@RestController
@DataPlane
@Tag(name = "jobs", description = "Push, look up, cancel and finish jobs")
public class JobController {
    /** The example body of a push in the API document. */
    private static final String PUSH_EXAMPLE = """
            {"topic":"order-close","subtopic":"paid","bizKey":"order-42",\
            "delay":1800000,"body":"{\\"orderId\\":42}"}""";

    private final DelayQueueService queue;
    private final TenantLimits limits;
    private final LiveTenants tenants;
    private final ObjectReader jobReader;
    private final JsonArray<Job> jobArray;
    private final ObjectWriter responseWriter;

    public JobController(DelayQueueService queue, TenantLimits limits, LiveTenants tenants, ObjectMapper mapper) {
        this.queue = queue;
        this.limits = limits;
        this.tenants = tenants;
        this.jobReader = mapper.readerFor(Job.class);
        this.jobArray = new JsonArray<>(mapper, Job.class);
        this.responseWriter = mapper.writerFor(ApiResponse.class);
    }

    // POST /push  body: one job -> its id, once journaled and stored.
    // Read and answered with the application's ObjectMapper directly: Spring's message converters (content
    // negotiation, header copies, validation lookups) would be a large share of a push's HTTP CPU.
    @Operation(
            summary = "Push one job",
            description = "Answers the job's id once it is journaled and stored: from "
                    + "then on it is delivered at least once, at createTime + delay + priority.")
    @io.swagger.v3.oas.annotations.parameters.RequestBody(
            required = true,
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                            schema = @Schema(implementation = PushRequest.class),
                            examples = @ExampleObject(name = "close an order in 30 minutes", value = PUSH_EXAMPLE)))
    @PostMapping(value = "/push", consumes = MediaType.APPLICATION_JSON_VALUE)
    public ApiResponse<String> push(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Caller caller = Caller.of(request);
        caller.requireKnown();
        Job job = readJob(request);
        requireTopics(caller, List.of(job));
        DelayQueueService.PushResult pushed;
        try (TenantLimits.Reservation room = limits.takePush(caller, 1)) {
            pushed = queue.pushReporting(List.of(job), namespaces(caller));
            room.stored(1);
        }
        String id = pushed.ids().get(0);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        responseWriter.writeValue(
                response.getOutputStream(),
                ApiResponse.pushed(caller.shown(id), pushed.duplicates().contains(id)));
        // already written; the declared type is what the API document shows (a handler given the response and
        // returning null leaves the response to it)
        return null;
    }

    /** The body as a job; failures raise the exception Spring's converter would, so errors read the same. */
    private Job readJob(HttpServletRequest request) {
        return JsonBody.read(
                request,
                jobReader,
                () -> new InvalidJobException(
                        "request", "/push takes one job as a JSON object; send several as an array to /push/batch"));
    }

    // POST /push/batch  body: array of up to limits.max-batch-size jobs -> their ids, in order
    // Read element by element: a longer array is refused once its limit is passed, before the rest is read.
    @Operation(
            summary = "Push many jobs in one transaction",
            description = "All are validated first: one bad job refuses the whole batch, naming it ([i].field).")
    @io.swagger.v3.oas.annotations.parameters.RequestBody(
            required = true,
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                            array = @ArraySchema(schema = @Schema(implementation = PushRequest.class), maxItems = 1000),
                            examples =
                                    @ExampleObject(
                                            name = "two jobs",
                                            value = "[" + PUSH_EXAMPLE + ",{\"topic\":\"order-remind\","
                                                    + "\"bizKey\":\"order-42\",\"delay\":600000}]")))
    @PostMapping(value = "/push/batch", consumes = MediaType.APPLICATION_JSON_VALUE)
    public ApiResponse<List<String>> pushBatch(HttpServletRequest request) {
        Caller caller = Caller.of(request);
        caller.requireKnown();
        int max = queue.limits().maxBatchSize();
        List<Job> jobs = jobArray.read(
                request, max, () -> new InvalidJobException("jobs", "at most " + max + " jobs per batch, got more"));
        requireTopics(caller, jobs);
        try (TenantLimits.Reservation room = limits.takePush(caller, jobs == null ? 0 : jobs.size())) {
            DelayQueueService.PushResult pushed = queue.pushReporting(jobs, namespaces(caller));
            room.stored(jobs.size());
            return ApiResponse.pushed(caller.shown(pushed.ids()), caller.shown(List.copyOf(pushed.duplicates())));
        }
    }

    /**
     * The namespace each pushed job is stored behind, by its topic: a tenant with a token pushes into its own; the
     * admin's push into a topic of such a tenant lands in that tenant's, so the tenant finds it by id as its own jobs.
     */
    private Function<String, String> namespaces(Caller caller) {
        if (caller.namespaced()) {
            String namespace = caller.namespace();
            return topic -> namespace;
        }
        if (caller != Caller.ADMIN) {
            return topic -> "";
        }
        TenantDirectory directory = tenants.directory();
        return topic -> {
            for (Tenant tenant : directory.tenants()) {
                if (!tenant.tokenless() && tenant.allows(topic)) {
                    return JobIds.namespace(tenant.name());
                }
            }
            return "";
        };
    }

    /**
     * Every job's topic must be the caller's, or nothing is stored (403); a job without one fails validation. The
     * tokenless default tenant shares the ids outside any namespace with the admin: an id it chose that a job of a
     * topic outside its patterns holds is refused (409) with one message whatever that job is, so the answer tells
     * nothing of it. A tenant with a token chooses ids in its own namespace, where no other can hold one.
     */
    private void requireTopics(Caller caller, List<Job> jobs) {
        if (jobs == null) {
            return;
        }
        List<String> clientIds = new ArrayList<>();
        for (Job job : jobs) {
            if (job != null && job.getTopic() != null) {
                caller.requireTopic(job.getTopic());
            }
            boolean shared = caller.scoped() && !caller.namespaced();
            if (shared && job != null && JobIds.plain(job.getId(), JobIds.MAX_LENGTH)) {
                clientIds.add(job.getId());
            }
        }
        if (clientIds.isEmpty()) {
            return;
        }
        for (Map.Entry<String, String> taken : queue.topicsOf(clientIds).entrySet()) {
            if (!caller.allows(taken.getValue())) {
                throw new JobStateConflictException(
                        taken.getKey(), "id " + taken.getKey() + " is taken: choose another id");
            }
        }
    }

    // GET /delete?jobId=  cancels a pending job (original mykit-delay route)
    @Operation(summary = "Cancel a pending job (legacy form of DELETE /jobs/{id})", deprecated = true)
    @ChangesState
    @GetMapping("/delete")
    public ApiResponse<String> delete(@RequestParam("jobId") String jobId, HttpServletRequest request) {
        OwnJobs.on(Caller.of(request), queue, jobId, stored -> {
            queue.delete(stored);
            return stored;
        });
        return ApiResponse.ok(jobId);
    }

    // DELETE /jobs/{id}  same as /delete
    @Operation(
            summary = "Cancel a pending job",
            description = "Only while it still waits: a job already handed to "
                    + "its target or reserved by a puller is refused with 409. A cancelled job is "
                    + "never delivered, whatever "
                    + "restore follows.")
    @DeleteMapping("/jobs/{id}")
    public ApiResponse<String> deleteJob(
            @PathVariable("id") @Parameter(example = "order-42-close") String id, HttpServletRequest request) {
        // checked here too, so a bad id is reported as the path's "id", not the legacy query's "jobId"
        JobValidator.requireId("id", id);
        return delete(id, request);
    }

    // POST /jobs/{id}/finish  same as /finish: acknowledges a pulled job
    @Operation(
            summary = "Acknowledge a pulled job",
            description = "The job is done and never delivered again; "
                    + "finishing it again is not an error. A job not due yet is refused with "
                    + "409: cancel it instead. So is a "
                    + "job no puller reserved: one handed to a broker (the broker delivers "
                    + "it) or due and not yet handed over.")
    @PostMapping("/jobs/{id}/finish")
    public ApiResponse<String> finishJob(
            @PathVariable("id") @Parameter(example = "order-42-close") String id, HttpServletRequest request) {
        JobValidator.requireId("id", id);
        OwnJobs.on(Caller.of(request), queue, id, stored -> {
            queue.finish(stored);
            return stored;
        });
        return ApiResponse.ok(id);
    }

    // PUT /jobs/{id}  body {"delay": ms from now, "body": optional new body}: reschedules a job still waiting
    @Operation(
            summary = "Reschedule a waiting job",
            description = "Replaces its delay (counted from now) and, when "
                    + "given, its body, in Redis and the journal at once. A job already due or "
                    + "handed over is refused with 409; "
                    + "a re-push of an id never reschedules (it answers duplicate:true).")
    @PutMapping(value = "/jobs/{id}", consumes = MediaType.APPLICATION_JSON_VALUE)
    public ApiResponse<Rescheduled> reschedule(
            @PathVariable("id") @Parameter(example = "order-42-close") String id,
            @RequestBody Reschedule change,
            HttpServletRequest request) {
        Caller caller = Caller.of(request);
        Job job = OwnJobs.on(caller, queue, id, stored -> queue.reschedule(stored, change.delay(), change.body()));
        return ApiResponse.ok(
                new Rescheduled(caller.shown(job.getId()), job.getCreateTime(), job.getDelay(), job.dueTime()));
    }

    /** The body of PUT /jobs/{id}. */
    public record Reschedule(
            @Schema(description = "new delay in ms, from now", example = "600000")
            Long delay,

            @Schema(description = "new body; absent keeps the old one", example = "close order 42")
            String body) {}

    /** The answer of PUT /jobs/{id}. */
    public record Rescheduled(
            @Schema(example = "order-42-close") String id,

            @Schema(description = "the reschedule's time, ms since the epoch")
            long createTime,

            @Schema(example = "600000") long delay,

            @Schema(description = "createTime + delay + priority")
            long dueTime) {}

    // GET /jobs/{id}  the job, its journal status and where Redis holds it
    @Operation(summary = "Look up a job by id")
    @GetMapping("/jobs/{id}")
    public ApiResponse<JobDetails> lookup(
            @PathVariable("id") @Parameter(example = "order-42-close") String id, HttpServletRequest request) {
        Caller caller = Caller.of(request);
        caller.requireKnown();
        JobView view = caller.namespaced() ? OwnJobs.on(caller, queue, id, queue::lookup) : queue.lookup(id);
        if (!caller.allows(view.job().getTopic())) {
            throw new JobNotFoundException(id);
        }
        return ApiResponse.ok(details(caller, view));
    }

    /** A job as the caller sees it. */
    private static JobDetails details(Caller caller, JobView view) {
        return JobDetails.of(
                new JobView(caller.shown(view.job()), view.status(), view.updateTime(), view.stage(), view.dueTime()));
    }

    // GET /jobs?bizKey=&topic=&after=&limit=  one page of the jobs pushed with bizKey (in topic when given), by id
    @Operation(
            summary = "Look up jobs by bizKey",
            description = "Every job pushed with the bizKey, ended ones too, "
                    + "ordered by id; the next page starts after the last id of this one.")
    @GetMapping("/jobs")
    public ApiResponse<List<JobDetails>> findByBizKey(
            @RequestParam("bizKey") @Parameter(example = "order-42") String bizKey,
            @RequestParam(value = "topic", required = false)
                    @Parameter(example = "order-close", description = "one topic only; absent or empty: every topic")
                    String topicOrEmpty,
            @RequestParam(value = "after", required = false) @Parameter(description = "last id of the previous page")
                    String after,
            @RequestParam(value = "limit", defaultValue = "" + DelayQueueService.MAX_BIZ_KEY_PAGE)
                    @Parameter(
                            schema =
                                    @Schema(
                                            type = "integer",
                                            format = "int32",
                                            minimum = "1",
                                            maximum = "" + DelayQueueService.MAX_BIZ_KEY_PAGE,
                                            defaultValue = "" + DelayQueueService.MAX_BIZ_KEY_PAGE))
                    int limit,
            HttpServletRequest request) {
        Caller caller = Caller.of(request);
        // the topic is optional here, and a form (the console's) sends an empty field for none
        String topic = topicOrEmpty == null || topicOrEmpty.isEmpty() ? null : topicOrEmpty;
        if (topic != null) {
            caller.requireTopic(topic);
        }
        if (caller.namespaced()) {
            caller.requireKnown();
            return ApiResponse.ok(OwnJobs.ownPage(
                            caller,
                            after,
                            limit,
                            (from, n) -> queue.findByBizKey(bizKey, topic, from, n),
                            view -> view.job().getId(),
                            view -> caller.allows(view.job().getTopic()) ? view : null)
                    .stream()
                    .map(view -> details(caller, view))
                    .toList());
        }
        if (topic != null || !caller.scoped()) {
            return ApiResponse.ok(queue.findByBizKey(bizKey, topic, after, limit).stream()
                    .map(JobDetails::of)
                    .toList());
        }
        return ApiResponse.ok(ownByBizKey(caller, bizKey, after, limit));
    }

    /** A page of the caller's own jobs of a bizKey: the journal reads the tenant's topics only. */
    private List<JobDetails> ownByBizKey(Caller caller, String bizKey, String after, int limit) {
        List<String> patterns =
                caller.tenant().topics().stream().map(TopicPattern::pattern).toList();
        return queue.findByBizKeyInTopics(bizKey, patterns, after, limit).stream()
                .map(JobDetails::of)
                .toList();
    }

    // DELETE /jobs?bizKey=&topic=&after=&limit=  cancels a page of the pending jobs of bizKey in topic, by id
    // -> {"cancelled":[ids], "refused":{id:why}, "more":bool, "next":id or null}
    @Operation(
            summary = "Cancel the pending jobs of a bizKey in a topic",
            description = "Each as DELETE /jobs/{id} "
                    + "does; a job that can no longer be cancelled (handed over, or being stored) is "
                    + "listed under refused. At "
                    + "most limit jobs per call, by id: when more is true, call again with after=next.")
    @DeleteMapping("/jobs")
    public ApiResponse<CancelReport> cancelByBizKey(
            @RequestParam("bizKey") @Parameter(example = "order-42") String bizKey,
            @RequestParam("topic") @Parameter(example = "order-close") String topic,
            @RequestParam(value = "after", required = false) @Parameter(description = "next of the previous page")
                    String after,
            @RequestParam(value = "limit", defaultValue = "" + Cancellation.MAX_CANCEL_PAGE)
                    @Parameter(
                            schema =
                                    @Schema(
                                            type = "integer",
                                            format = "int32",
                                            minimum = "1",
                                            maximum = "" + Cancellation.MAX_CANCEL_PAGE,
                                            defaultValue = "" + Cancellation.MAX_CANCEL_PAGE))
                    int limit,
            HttpServletRequest request) {
        Caller caller = Caller.of(request);
        caller.requireTopic(topic);
        if (!caller.namespaced()) {
            return ApiResponse.ok(queue.cancelByBizKey(topic, bizKey, after, limit));
        }
        if (after != null) {
            JobValidator.requirePlainId("after", after, JobIds.MAX_LENGTH);
        }
        CancelReport report =
                queue.cancelByBizKey(topic, bizKey, after == null ? caller.namespace() : caller.stored(after), limit);
        return ApiResponse.ok(shown(caller, report));
    }

    /** A cancel report as a namespaced caller sees it; a page that ran past its namespace is its last. */
    private static CancelReport shown(Caller caller, CancelReport report) {
        Map<String, String> refused = new LinkedHashMap<>();
        report.refused().forEach((id, why) -> refused.put(caller.shown(id), why.replace(caller.namespace(), "")));
        boolean more = report.more() && report.next().startsWith(caller.namespace());
        return new CancelReport(
                caller.shown(report.cancelled()), refused, more, more ? caller.shown(report.next()) : null);
    }
}
