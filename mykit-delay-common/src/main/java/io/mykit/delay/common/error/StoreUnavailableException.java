package io.mykit.delay.common.error;

/** Redis or the journal database cannot be reached; the request may be retried. */
public class StoreUnavailableException extends DelayException {
    private final String store;

    public StoreUnavailableException(String store, String message, Throwable cause) {
        super(store + " unavailable: " + message, null, cause);
        this.store = store;
    }

    public String store() {
        return store;
    }

    @Override
    public int httpStatus() {
        return 503;
    }
}
