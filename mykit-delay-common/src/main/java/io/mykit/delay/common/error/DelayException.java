package io.mykit.delay.common.error;

/** Root of the gateway's own errors; each subclass maps to one HTTP status at the boundary. */
public abstract class DelayException extends RuntimeException {
    private final String jobId;

    protected DelayException(String message, String jobId, Throwable cause) {
        super(message, cause);
        this.jobId = jobId;
    }

    public String jobId() {
        return jobId;
    }

    /** The HTTP status this error is answered with. */
    public abstract int httpStatus();
}
