package io.mykit.delay.controller;

import jakarta.servlet.ServletException;
import java.io.IOException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;

/**
 * Puts the address of the TCP peer into a request attribute, {@link #ATTRIBUTE}, for {@link AdminGuard}. Tomcat's peer
 * address comes from the socket: unlike the remote address, neither Tomcat's RemoteIpValve nor Spring's
 * ForwardedHeaderFilter rewrites it from an X-Forwarded-For header, whatever server.forward-headers-strategy says.
 */
public class SocketPeerValve extends ValveBase {
    /** The request attribute holding the peer's IP literal. */
    public static final String ATTRIBUTE = SocketPeerValve.class.getName() + ".address";

    public SocketPeerValve() {
        super(true);
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        request.setAttribute(ATTRIBUTE, request.getPeerAddr());
        getNext().invoke(request, response);
    }
}
