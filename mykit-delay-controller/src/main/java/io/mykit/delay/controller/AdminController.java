package io.mykit.delay.controller;

import io.mykit.delay.queue.cluster.BucketOwnership;
import io.mykit.delay.queue.cluster.ClusterView;
import io.mykit.delay.queue.recovery.RecoveryService;
import io.mykit.delay.queue.recovery.RestoreReport;
import io.mykit.delay.queue.service.DelayQueueService;
import io.mykit.delay.queue.service.JobValidator;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.Map;

/** Operator calls of the original mykit-delay, all {@link AdminOnly}: rebuild Redis from the journal, or wipe it. */
@RestController
public class AdminController {
    private final RecoveryService recovery;
    private final BucketOwnership ownership;
    private final DelayQueueService queue;

    public AdminController(RecoveryService recovery, BucketOwnership ownership, DelayQueueService queue) {
        this.recovery = recovery;
        this.ownership = ownership;
        this.queue = queue;
    }

    // GET /cluster  mode, this node, members, each bucket's owner and token, ZooKeeper state (this node's view)
    @AdminOnly
    @GetMapping("/cluster")
    public ApiResponse<ClusterView> cluster() {
        return ApiResponse.ok(ownership.view());
    }

    // GET /reStore?expire=true|false  re-adds every pending journaled job Redis lacks (expire=false skips past-due
    // ones); true by default, as in the original: a restore must not drop what was accepted
    @AdminOnly
    @GetMapping("/reStore")
    public ApiResponse<RestoreReport> restore(@RequestParam(value = "expire", defaultValue = "true") boolean expire) {
        return ApiResponse.ok(recovery.restore(expire));
    }

    // GET /reStore/status  progress of the running restore, or the last one's outcome
    @AdminOnly
    @GetMapping("/reStore/status")
    public ApiResponse<RestoreReport> restoreStatus() {
        return ApiResponse.ok(recovery.status());
    }

    // GET /reStoreJob?jobId=  the same for one job
    @AdminOnly
    @GetMapping("/reStoreJob")
    public ApiResponse<Map<String, Object>> restoreJob(@RequestParam("jobId") String jobId) {
        JobValidator.requireId("jobId", jobId);
        boolean restored = recovery.restoreJob(jobId);
        return ApiResponse.ok(Map.of("jobId", jobId, "restored", restored,
                "detail", restored ? "added to Redis" : "Redis already holds it"));
    }

    // GET /clearAll[?cancel=true]  removes this gateway's queue data from Redis; the journal is kept. cancel=true (the
    // original's meaning) first journals every pending job as cancelled, so no restore brings them back
    @AdminOnly
    @GetMapping("/clearAll")
    public ApiResponse<Map<String, Object>> clearAll(@RequestParam(value = "cancel", defaultValue = "false") boolean cancel) {
        Map<String, Object> report = new java.util.LinkedHashMap<>();
        if (cancel) {
            DelayQueueService.CancelAllReport cancelled = queue.cancelAllPending();
            report.put("cancelled", cancelled.cancelled());
            report.put("refused", cancelled.refused());
        }
        report.put("removedKeys", recovery.clearAll());
        return ApiResponse.ok(report);
    }
}
