package io.mykit.delay.controller;

/** A request for an {@link AdminOnly} handler that its caller may not run: 401 (token missing or wrong) or 403. */
public class AdminAccessDeniedException extends RuntimeException {
    private final int status;

    private AdminAccessDeniedException(int status, String message) {
        super(message);
        this.status = status;
    }

    static AdminAccessDeniedException tokenRequired() {
        return new AdminAccessDeniedException(
                401, "admin token required: Authorization: Bearer <token> or X-Admin-Token: <token>");
    }

    static AdminAccessDeniedException tokenWrong() {
        return new AdminAccessDeniedException(
                401, "admin token wrong: the token sent is not mykit.delay.admin.token; send the admin token");
    }

    static AdminAccessDeniedException tenantToken() {
        return new AdminAccessDeniedException(403, "a tenant's token gives no admin rights: call with the admin token");
    }

    static AdminAccessDeniedException notLoopback() {
        return new AdminAccessDeniedException(
                403,
                "admin calls are only answered from this host, not through a proxy, "
                        + "while no admin token is set: set mykit.delay.admin.token (then send it), or "
                        + "mykit.delay.admin.open=true to allow anyone");
    }

    static AdminAccessDeniedException foreignHost() {
        return new AdminAccessDeniedException(
                403,
                "admin calls without a token need a Host header of localhost, "
                        + "127.0.0.1 or [::1] (another name may be a web page's, resolved to this "
                        + "host): call by one of those, "
                        + "or set mykit.delay.admin.token (then send it)");
    }

    static AdminAccessDeniedException crossOrigin() {
        return new AdminAccessDeniedException(
                403,
                "admin calls without a token are not answered to a web page of "
                        + "another origin: set mykit.delay.admin.token (then send it)");
    }

    static AdminAccessDeniedException foreignHostOpen() {
        return new AdminAccessDeniedException(
                403,
                "a browser's admin call without a token must name the gateway by localhost, an IP address or a name "
                        + "in mykit.delay.http.allowed-hosts (another name may be a web page's, resolved to this "
                        + "host)");
    }

    static AdminAccessDeniedException browserChange() {
        return new AdminAccessDeniedException(
                403,
                "without a token an admin call that changes state does not run from a browser's navigation or "
                        + "from a browser's GET: use its POST form (POST /admin/clear, POST /admin/restore, ...) "
                        + "from a script, or curl");
    }

    public int status() {
        return status;
    }
}
