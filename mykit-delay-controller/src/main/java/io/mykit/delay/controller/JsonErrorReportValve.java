package io.mykit.delay.controller;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat rejects some requests before Spring sees them (encoded slashes, NUL, bad UTF-8 in the path, a request line too
 * long); this valve answers those with the JSON envelope instead of Tomcat's HTML page.
 */
public class JsonErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        String message = status >= 500 ? "internal error" : "request rejected by the HTTP server";
        try {
            response.setContentType("application/json");
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write("{\"success\":false,\"code\":" + status + ",\"message\":\"" + message
                        + "\",\"data\":null,\"field\":\"request\"}");
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            container.getLogger().debug("could not write the JSON error body", e);
        }
    }
}
