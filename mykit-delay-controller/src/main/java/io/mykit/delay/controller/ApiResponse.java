package io.mykit.delay.controller;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;

/** The original mykit-delay envelope: {@code {"success","code","message","data"}}, plus the offending field on 4xx. */
public record ApiResponse<T>(@Schema(example = "true") boolean success,
                             @Schema(description = "the HTTP status", example = "200") int code,
                             @Schema(description = "\"ok\", or what was wrong", example = "ok") String message,
                             T data,
                             @Schema(description = "on 4xx: the offending field or parameter", example = "delay")
                             @JsonInclude(JsonInclude.Include.NON_NULL) String field) {

    public static <T> ApiResponse<T> ok(T data) {
        return new ApiResponse<>(true, 200, "ok", data, null);
    }

    public static ApiResponse<Void> error(int code, String message, String field) {
        return new ApiResponse<>(false, code, message, null, field);
    }
}
