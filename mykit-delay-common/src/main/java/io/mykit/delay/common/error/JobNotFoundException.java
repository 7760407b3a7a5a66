package io.mykit.delay.common.error;

public class JobNotFoundException extends DelayException {
    public JobNotFoundException(String jobId) {
        super("job not found: " + jobId, jobId, null);
    }

    @Override
    public int httpStatus() {
        return 404;
    }
}
