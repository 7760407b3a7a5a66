package io.mykit.delay.common.error;

/** As many long-polls as the gateway lets wait are waiting already: the puller should try again a little later. */
public class TooManyPollsException extends DelayException {

    public TooManyPollsException(String message) {
        super(message, null, null);
    }

    @Override
    public int httpStatus() {
        return 429;
    }
}
