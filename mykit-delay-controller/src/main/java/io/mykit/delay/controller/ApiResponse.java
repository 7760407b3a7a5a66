package io.mykit.delay.controller;

import com.fasterxml.jackson.annotation.JsonInclude;

/** The original mykit-delay envelope: {@code {"success","code","message","data"}}, plus the offending field on 4xx. */
public record ApiResponse<T>(boolean success, int code, String message, T data,
                             @JsonInclude(JsonInclude.Include.NON_NULL) String field) {

    public static <T> ApiResponse<T> ok(T data) {
        return new ApiResponse<>(true, 200, "ok", data, null);
    }

    public static ApiResponse<Void> error(int code, String message, String field) {
        return new ApiResponse<>(false, code, message, null, field);
    }
}
