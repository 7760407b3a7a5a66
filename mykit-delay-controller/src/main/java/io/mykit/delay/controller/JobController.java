package io.mykit.delay.controller;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.service.DelayQueueService;
import io.mykit.delay.queue.service.JobView;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Push, cancel and look up jobs. */
@RestController
public class JobController {
    private final DelayQueueService queue;
    private final ObjectReader jobReader;
    private final ObjectWriter responseWriter;

    public JobController(DelayQueueService queue, ObjectMapper mapper) {
        this.queue = queue;
        this.jobReader = mapper.readerFor(Job.class);
        this.responseWriter = mapper.writerFor(ApiResponse.class);
    }

    // POST /push  body: one job -> its id, once journaled and stored.
    // Read and answered with the application's ObjectMapper directly: Spring's message-converter road
    // (content negotiation, header copies, validation lookups) was 40% of a push's HTTP CPU in the bench profile.
    @PostMapping(value = "/push", consumes = MediaType.APPLICATION_JSON_VALUE)
    public void push(HttpServletRequest request, HttpServletResponse response) throws IOException {
        DelayQueueService.PushResult pushed = queue.pushReporting(List.of(readJob(request)));
        String id = pushed.ids().get(0);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        responseWriter.writeValue(response.getOutputStream(), ApiResponse.pushed(id, pushed.duplicates().contains(id)));
    }

    /** The body as a job; failures raise the exception Spring's converter would, so errors read the same. */
    private Job readJob(HttpServletRequest request) {
        Job job;
        try {
            byte[] body = request.getInputStream().readAllBytes();
            job = body.length == 0 ? null : jobReader.readValue(body);
        } catch (IOException e) {
            throw new HttpMessageNotReadableException("JSON parse error: " + e.getMessage(), e,
                    new ServletServerHttpRequest(request));
        }
        if (job == null) {
            throw new HttpMessageNotReadableException("Required request body is missing",
                    new ServletServerHttpRequest(request));
        }
        return job;
    }

    // POST /push/batch  body: array of up to limits.max-batch-size jobs -> their ids, in order
    @PostMapping("/push/batch")
    public ApiResponse<List<String>> pushBatch(@RequestBody List<Job> jobs) {
        DelayQueueService.PushResult pushed = queue.pushReporting(jobs);
        return ApiResponse.pushed(pushed.ids(), pushed.duplicates());
    }

    // GET /delete?jobId=  cancels a pending job (original mykit-delay route)
    @GetMapping("/delete")
    public ApiResponse<String> delete(@RequestParam("jobId") String jobId) {
        queue.delete(jobId);
        return ApiResponse.ok(jobId);
    }

    // DELETE /jobs/{id}  same as /delete
    @DeleteMapping("/jobs/{id}")
    public ApiResponse<String> deleteJob(@PathVariable("id") String id) {
        return delete(id);
    }

    // PUT /jobs/{id}  body {"delay": ms from now, "body": optional new body}: reschedules a job still waiting
    @PutMapping(value = "/jobs/{id}", consumes = MediaType.APPLICATION_JSON_VALUE)
    public ApiResponse<Map<String, Object>> reschedule(@PathVariable("id") String id, @RequestBody Reschedule change) {
        Job job = queue.reschedule(id, change.delay(), change.body());
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("id", job.getId());
        data.put("createTime", job.getCreateTime());
        data.put("delay", job.getDelay());
        data.put("dueTime", job.dueTime());
        return ApiResponse.ok(data);
    }

    /** The body of PUT /jobs/{id}. */
    public record Reschedule(Long delay, String body) {
    }

    // GET /jobs/{id}  the job, its journal status and where Redis holds it
    @GetMapping("/jobs/{id}")
    public ApiResponse<Map<String, Object>> lookup(@PathVariable("id") String id) {
        JobView view = queue.lookup(id);
        Job job = view.job();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("id", job.getId());
        data.put("topic", job.getTopic());
        data.put("subtopic", job.getSubtopic());
        data.put("bizKey", job.getBizKey());
        data.put("delay", job.getDelay());
        data.put("priority", job.getPriority());
        data.put("ttl", job.getTtl());
        data.put("tries", job.getTries());
        data.put("attempts", job.getAttempts());
        data.put("body", job.getBody());
        data.put("createTime", job.getCreateTime());
        data.put("dueTime", job.dueTime());
        data.put("status", view.status().name());
        data.put("statusCode", view.status().code());
        data.put("updateTime", view.updateTime());
        data.put("stage", view.stage() == null ? null : view.stage().name());
        return ApiResponse.ok(data);
    }
}
