package io.mykit.delay.controller;

/** A data-plane call its caller may not make: 401 (token missing or unknown) or 403 (a topic outside its patterns). */
public class TenantAccessException extends RuntimeException {
    private final int status;

    private TenantAccessException(int status, String message) {
        super(message);
        this.status = status;
    }

    static TenantAccessException tokenRequired() {
        return new TenantAccessException(401, "token required: Authorization: Bearer <token>");
    }

    static TenantAccessException unknownToken() {
        return new TenantAccessException(401, "token not known: Authorization: Bearer <token>");
    }

    static TenantAccessException foreignTopic(String topic) {
        return new TenantAccessException(403, "topic " + topic + " is not one of this token's topics");
    }

    static TenantAccessException adminOnly(String what) {
        return new TenantAccessException(403, what + " are shown to the admin only while tenants are configured");
    }

    public int status() {
        return status;
    }
}
