package io.mykit.delay.controller;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.web.servlet.error.ErrorController;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Replaces Spring Boot's /error page: errors raised outside the controllers (the servlet container, filters) get the
 * same JSON envelope, and /error called directly is just an unknown route.
 */
@Hidden // the container's error forward, not an API route
@RestController
public class JsonErrorController implements ErrorController {

    // any method on /error: the container forwards failed requests here
    @RequestMapping("/error")
    public ResponseEntity<ApiResponse<Void>> error(HttpServletRequest request) {
        Object status = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        if (!(status instanceof Integer code) || code < 400) {
            return ApiExceptionHandler.respond(404, "no such route: /error", null);
        }
        String message = code == 404 ? "no such route" : code >= 500 ? "internal error" : "bad request";
        return ApiExceptionHandler.respond(code, message, null);
    }
}
