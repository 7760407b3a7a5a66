package io.mykit.delay.common.error;

/** Bad input: names the offending field so the client can fix it. */
public class InvalidJobException extends DelayException {
    private final String field;

    public InvalidJobException(String field, String message) {
        super(field + ": " + message, null, null);
        this.field = field;
    }

    public String field() {
        return field;
    }

    @Override
    public int httpStatus() {
        return 400;
    }
}
