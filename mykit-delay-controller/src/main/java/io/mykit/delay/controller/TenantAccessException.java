package io.mykit.delay.controller;

/**
 * A data-plane call its caller may not make: 401 (token missing or unknown) or 403 (a topic outside its patterns, or a
 * browser's call without a token that {@link BrowserGuard} refuses).
 */
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

    static TenantAccessException crossOrigin() {
        return new TenantAccessException(
                403, "calls without a token are not answered to a web page of another origin: call with a token");
    }

    static TenantAccessException foreignHost() {
        return new TenantAccessException(
                403,
                "a browser's call without a token must name the gateway by localhost, an IP address or a name in "
                        + "mykit.delay.http.allowed-hosts (another name may be a web page's, resolved to this host)");
    }

    static TenantAccessException browserChange() {
        return new TenantAccessException(
                403,
                "a browser changes nothing without a token by loading a page or by a GET: use POST /push, "
                        + "DELETE /jobs/{id} or POST /jobs/{id}/finish from a script, or call from a program");
    }

    public int status() {
        return status;
    }
}
