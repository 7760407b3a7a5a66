package io.mykit.delay.controller;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.service.DelayQueueService;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;
import java.util.Map;

/** HTTP pull consumers: reserve a due job, then finish it. */
@RestController
public class PullController {
    private final DelayQueueService queue;

    public PullController(DelayQueueService queue) {
        this.queue = queue;
    }

    // GET /get/{topic}?ttr=<ms>&timeout=<ms>  reserves one due job for ttr; data is null when none came within timeout
    @GetMapping("/get/{topic}")
    public ApiResponse<Job> get(@PathVariable("topic") String topic,
                                @RequestParam(value = "ttr", required = false) Long ttr,
                                @RequestParam(value = "timeout", required = false) Long timeout) {
        return ApiResponse.ok(queue.reserve(topic, ttr, timeout).orElse(null));
    }

    // GET /get/{topic}/batch?count=<n>&ttr=<ms>&timeout=<ms>  reserves up to count due jobs for ttr; waits up to
    // timeout for the first one, then answers with what is ready; data is [] when none came
    @GetMapping("/get/{topic}/batch")
    public ApiResponse<List<Job>> getBatch(@PathVariable("topic") String topic,
                                           @RequestParam(value = "count") int count,
                                           @RequestParam(value = "ttr", required = false) Long ttr,
                                           @RequestParam(value = "timeout", required = false) Long timeout) {
        return ApiResponse.ok(queue.reserve(topic, count, ttr, timeout));
    }

    // POST /finish/batch  body: ["jobId", ...] -> {"finished":[ids], "refused":{id: reason}}
    @PostMapping("/finish/batch")
    public ApiResponse<DelayQueueService.FinishReport> finishBatch(@RequestBody List<String> jobIds) {
        return ApiResponse.ok(queue.finishAll(jobIds));
    }

    // POST /release?jobId=&delay=<ms>  gives a reserved job back, due again after delay (default 0); counts as a try,
    // so a job out of tries or ttl is buried as dead instead -> {"jobId":..,"dead":true|false}
    @PostMapping("/release")
    public ApiResponse<Map<String, Object>> release(@RequestParam("jobId") String jobId,
                                                    @RequestParam(value = "delay", required = false) Long delay) {
        boolean dead = queue.release(jobId, delay);
        return ApiResponse.ok(Map.of("jobId", jobId, "dead", dead));
    }

    // POST /touch?jobId=&ttr=<ms>  extends a reservation to ttr from now (default pull.default-ttr)
    @PostMapping("/touch")
    public ApiResponse<String> touch(@RequestParam("jobId") String jobId,
                                     @RequestParam(value = "ttr", required = false) Long ttr) {
        queue.touch(jobId, ttr);
        return ApiResponse.ok(jobId);
    }

    // GET /finish?jobId=  acknowledges a reserved job
    @GetMapping("/finish")
    public ApiResponse<String> finish(@RequestParam("jobId") String jobId) {
        queue.finish(jobId);
        return ApiResponse.ok(jobId);
    }
}
