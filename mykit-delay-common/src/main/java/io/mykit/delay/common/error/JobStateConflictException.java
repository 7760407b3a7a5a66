package io.mykit.delay.common.error;

/** The job exists but its state does not allow the request (e.g. finishing a job never delivered). */
public class JobStateConflictException extends DelayException {
    public JobStateConflictException(String jobId, String message) {
        super(message, jobId, null);
    }

    @Override
    public int httpStatus() {
        return 409;
    }
}
