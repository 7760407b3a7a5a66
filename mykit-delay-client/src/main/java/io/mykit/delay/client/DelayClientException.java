package io.mykit.delay.client;

/**
 * A call the gateway refused or that got no answer: the HTTP status (0 when no answer came, the cause says why), the
 * gateway's error message and, for bad input, the field it names.
 */
public class DelayClientException extends RuntimeException {
    private final int status;
    private final String gatewayMessage;
    private final String field;

    public DelayClientException(int status, String gatewayMessage, String field, Throwable cause) {
        super(describe(status, gatewayMessage, field), cause);
        this.status = status;
        this.gatewayMessage = gatewayMessage;
        this.field = field;
    }

    /** The HTTP status (400, 404, 409, 429, 503, ...), or 0 when no answer came. */
    public int status() {
        return status;
    }

    /** The gateway's {@code message}, or what went wrong when no answer came. */
    public String gatewayMessage() {
        return gatewayMessage;
    }

    /** On a 400: the field or parameter the gateway names ({@code "delay"}, {@code "[3].topic"}); else null. */
    public String field() {
        return field;
    }

    private static String describe(int status, String message, String field) {
        String where = field == null ? "" : " (" + field + ")";
        return status == 0 ? "no answer: " + message : "HTTP " + status + where + ": " + message;
    }
}
