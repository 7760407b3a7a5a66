package io.mykit.delay.common.error;

/** Redis or the journal database cannot be reached; the request may be retried. */
public class StoreUnavailableException extends DelayException {
    private final String store;
    private final String outcome;

    public StoreUnavailableException(String store, String message, Throwable cause) {
        this(store, message, null, cause);
    }

    /**
     * {@code outcome}: what became of the caller's request, safe to answer publicly (it names no address and quotes no
     * driver); null when there is nothing to say beyond the store's name.
     */
    public StoreUnavailableException(String store, String message, String outcome, Throwable cause) {
        super(store + " unavailable: " + message, null, cause);
        this.store = store;
        this.outcome = outcome;
    }

    public String store() {
        return store;
    }

    /** What the caller may be told of its request, or null. */
    public String outcome() {
        return outcome;
    }

    @Override
    public int httpStatus() {
        return 503;
    }
}
