package io.mykit.delay.queue.journal;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableField;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;
import io.mykit.delay.common.model.Job;
import java.time.LocalDateTime;

/** A row of {@code mykit_delay_queue_job}. */
@TableName("mykit_delay_queue_job")
public class JobRow {
    @TableId(type = IdType.INPUT)
    private String id;

    @TableField("bizkey")
    private String bizKey;

    private String topic;
    private String subtopic;
    private Long delay;
    private Integer priority;
    private Long ttl;
    private Integer tries;
    private Integer attempts;
    private Long createTime;
    private Long dueTime;
    private String body;
    private Integer status;
    private LocalDateTime updateTime;

    public static JobRow of(Job job, int status, LocalDateTime at) {
        JobRow row = new JobRow();
        row.id = job.getId();
        row.bizKey = job.getBizKey();
        row.topic = job.getTopic();
        row.subtopic = job.getSubtopic();
        row.delay = job.getDelay();
        row.priority = job.getPriority();
        row.ttl = job.getTtl();
        row.tries = job.getTries();
        row.attempts = job.getAttempts();
        row.createTime = job.getCreateTime();
        row.dueTime = job.dueTime();
        row.body = job.getBody();
        row.status = status;
        row.updateTime = at;
        return row;
    }

    public Job toJob() {
        Job job = new Job(
                id,
                topic,
                subtopic,
                bizKey,
                nz(delay),
                priority == null ? 0 : priority,
                nz(ttl),
                tries == null ? 0 : tries,
                body,
                nz(createTime));
        job.setAttempts(attempts == null ? 0 : attempts);
        return job;
    }

    private static long nz(Long v) {
        return v == null ? 0 : v;
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public String getBizKey() {
        return bizKey;
    }

    public void setBizKey(String bizKey) {
        this.bizKey = bizKey;
    }

    public String getTopic() {
        return topic;
    }

    public void setTopic(String topic) {
        this.topic = topic;
    }

    public String getSubtopic() {
        return subtopic;
    }

    public void setSubtopic(String subtopic) {
        this.subtopic = subtopic;
    }

    public Long getDelay() {
        return delay;
    }

    public void setDelay(Long delay) {
        this.delay = delay;
    }

    public Integer getPriority() {
        return priority;
    }

    public void setPriority(Integer priority) {
        this.priority = priority;
    }

    public Long getTtl() {
        return ttl;
    }

    public void setTtl(Long ttl) {
        this.ttl = ttl;
    }

    public Integer getTries() {
        return tries;
    }

    public void setTries(Integer tries) {
        this.tries = tries;
    }

    public Integer getAttempts() {
        return attempts;
    }

    public void setAttempts(Integer attempts) {
        this.attempts = attempts;
    }

    public Long getCreateTime() {
        return createTime;
    }

    public void setCreateTime(Long createTime) {
        this.createTime = createTime;
    }

    public Long getDueTime() {
        return dueTime;
    }

    public void setDueTime(Long dueTime) {
        this.dueTime = dueTime;
    }

    public String getBody() {
        return body;
    }

    public void setBody(String body) {
        this.body = body;
    }

    public Integer getStatus() {
        return status;
    }

    public void setStatus(Integer status) {
        this.status = status;
    }

    public LocalDateTime getUpdateTime() {
        return updateTime;
    }

    public void setUpdateTime(LocalDateTime updateTime) {
        this.updateTime = updateTime;
    }
}
