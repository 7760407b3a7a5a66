package io.mykit.delay.controller;

import jakarta.servlet.ServletException;
import java.io.IOException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;

/**
 * Closes the connection of a request answered without its body read (a refused caller, a route that takes none) instead
 * of letting Tomcat read and discard the rest: that would hold a request thread for as long as the client takes to send
 * it, and no token would have been needed for that.
 */
public class UnreadBodyValve extends ValveBase {
    public UnreadBodyValve() {
        super(true);
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        getNext().invoke(request, response);
        if (!request.isAsync() && !request.getCoyoteRequest().isFinished()) {
            if (!response.isCommitted()) {
                response.setHeader("Connection", "close");
            }
            request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
        }
    }
}
