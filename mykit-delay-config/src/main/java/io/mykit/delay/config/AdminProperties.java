package io.mykit.delay.config;

/** {@code mykit.delay.admin.*}: who may call the admin endpoints. */
public class AdminProperties {
    /** Token admin calls (/reStore*, /reStoreJob, /clearAll, dead-letter changes) need from every address. */
    private String token;
    /**
     * Without a token: false (default) answers admin calls only to programs on this host (loopback, not through a
     * proxy, called as localhost, 127.0.0.1 or [::1]), true to anyone; never to a web page of another origin.
     */
    private boolean open = false;

    public String getToken() {
        return token;
    }

    public void setToken(String token) {
        this.token = token;
    }

    public boolean isOpen() {
        return open;
    }

    public void setOpen(boolean open) {
        this.open = open;
    }
}
