package io.mykit.delay.controller;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.mykit.delay.queue.cluster.BucketOwnership;
import io.mykit.delay.queue.cluster.ClusterView;
import io.mykit.delay.queue.recovery.RecoveryService;
import io.mykit.delay.queue.recovery.RestoreReport;
import io.mykit.delay.queue.service.CancelAllReport;
import io.mykit.delay.queue.service.DelayQueueService;
import io.mykit.delay.queue.service.JobValidator;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Operator calls, all {@link AdminOnly}: rebuild Redis from the journal, or wipe it. The original mykit-delay's GET
 * routes stay beside their POST forms under /admin, and run the same code.
 */
@RestController
@Tag(
        name = "admin",
        description = "Operator calls: they need the admin token (or, with none set, a caller on the "
                + "gateway's host that is no web page of another origin)")
public class AdminController {
    private final RecoveryService recovery;
    private final BucketOwnership ownership;
    private final DelayQueueService queue;

    public AdminController(RecoveryService recovery, BucketOwnership ownership, DelayQueueService queue) {
        this.recovery = recovery;
        this.ownership = ownership;
        this.queue = queue;
    }

    /** What a single-job restore did. */
    public record RestoredJob(
            @Schema(example = "order-42-close") String jobId,

            @Schema(description = "false when Redis already held it")
            boolean restored,

            @Schema(example = "added to Redis") String detail) {}

    /** What a clear did. */
    public record Cleared(
            @Schema(description = "with cancel=true: pending jobs cancelled", example = "1000")
            @JsonInclude(JsonInclude.Include.NON_NULL)
            Long cancelled,

            @Schema(description = "with cancel=true: jobs not cancelled (first 1,000), id -> why")
            @JsonInclude(JsonInclude.Include.NON_NULL)
            Map<String, String> refused,

            @Schema(description = "Redis keys removed", example = "1032")
            long removedKeys) {}

    // GET /cluster  mode, this node, members, each bucket's owner and token, ZooKeeper state (this node's view)
    @Operation(summary = "Cluster view of this node")
    @AdminOnly
    @GetMapping("/cluster")
    public ApiResponse<ClusterView> cluster() {
        return ApiResponse.ok(ownership.view());
    }

    // GET /reStore?expire=true|false  re-adds every pending journaled job Redis lacks (expire=false skips past-due
    // ones); true by default, as in the original: a restore must not drop what was accepted
    @Operation(summary = "Restore Redis from the journal (legacy form of POST /admin/restore)", deprecated = true)
    @AdminOnly
    @ChangesState
    @GetMapping("/reStore")
    public ApiResponse<RestoreReport> restore(@RequestParam(value = "expire", defaultValue = "true") boolean expire) {
        return ApiResponse.ok(recovery.restore(expire));
    }

    // GET /reStore/status  progress of the running restore, or the last one's outcome
    @Operation(summary = "Progress of the running restore, or the last one's outcome")
    @AdminOnly
    @GetMapping("/reStore/status")
    public ApiResponse<RestoreReport> restoreStatus() {
        return ApiResponse.ok(recovery.status());
    }

    // GET /reStoreJob?jobId=  the same for one job
    @Operation(summary = "Restore one job (legacy form of POST /admin/restore/{id})", deprecated = true)
    @AdminOnly
    @ChangesState
    @GetMapping("/reStoreJob")
    public ApiResponse<RestoredJob> restoreJob(@RequestParam("jobId") String jobId) {
        JobValidator.requireId("jobId", jobId);
        boolean restored = recovery.restoreJob(jobId);
        return ApiResponse.ok(new RestoredJob(jobId, restored, restored ? "added to Redis" : "Redis already holds it"));
    }

    // GET /clearAll[?cancel=true]  removes this gateway's queue data from Redis; the journal is kept. cancel=true (the
    // original's meaning) first journals every pending job as cancelled, so no restore brings them back
    @Operation(
            summary = "Remove this gateway's queue data from Redis (legacy form of POST /admin/clear)",
            deprecated = true)
    @AdminOnly
    @ChangesState
    @GetMapping("/clearAll")
    public ApiResponse<Cleared> clearAll(
            @RequestParam(value = "cancel", defaultValue = "false")
                    @Parameter(description = "first cancel every pending job (journaled Delete)")
                    boolean cancel) {
        Long cancelled = null;
        Map<String, String> refused = null;
        if (cancel) {
            CancelAllReport report = queue.cancelAllPending();
            cancelled = report.cancelled();
            refused = report.refused();
        }
        return ApiResponse.ok(new Cleared(cancelled, refused, recovery.clearAll()));
    }

    // POST /admin/restore?expire=true|false  REST form of /reStore
    @Operation(
            summary = "Restore Redis from the journal",
            description = "Adds every pending journaled job Redis "
                    + "lacks (idempotent, safe while the gateway runs); expire=false skips jobs "
                    + "already past due. Answers "
                    + "when done.")
    @AdminOnly
    @PostMapping("/admin/restore")
    public ApiResponse<RestoreReport> adminRestore(
            @RequestParam(value = "expire", defaultValue = "true") @Parameter(example = "true") boolean expire) {
        return restore(expire);
    }

    // POST /admin/restore/{id}  REST form of /reStoreJob
    @Operation(
            summary = "Restore one job from the journal",
            description = "Adds it to Redis if it is pending in the journal and Redis lacks it.")
    @AdminOnly
    @PostMapping("/admin/restore/{id}")
    public ApiResponse<RestoredJob> adminRestoreJob(
            @PathVariable("id") @Parameter(example = "order-42-close") String id) {
        return restoreJob(id);
    }

    // POST /admin/clear[?cancel=true]  REST form of /clearAll
    @Operation(
            summary = "Remove this gateway's queue data from Redis",
            description = "The journal is kept: a "
                    + "restore brings the pending jobs back, unless cancel=true cancelled them first.")
    @AdminOnly
    @PostMapping("/admin/clear")
    public ApiResponse<Cleared> adminClear(@RequestParam(value = "cancel", defaultValue = "false") boolean cancel) {
        return clearAll(cancel);
    }
}
