package io.mykit.delay.controller;

/** A request body refused while it is read: too large (413), too slow (408), not UTF-8 (400), no room (503). */
public class RequestBodyException extends RuntimeException {
    private final int status;

    public RequestBodyException(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }

    static RequestBodyException tooLarge(long limit) {
        return new RequestBodyException(413, "request: larger than " + limit + " bytes");
    }

    static RequestBodyException noRoom() {
        return new RequestBodyException(503, "request: too many request bodies in flight, retry shortly");
    }
}
