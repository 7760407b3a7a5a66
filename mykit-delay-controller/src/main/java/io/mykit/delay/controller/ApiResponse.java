package io.mykit.delay.controller;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.Collection;
import java.util.List;

/**
 * The original mykit-delay envelope: {@code {"success","code","message","data"}}, plus the offending field on 4xx and,
 * on a push whose client-chosen id was journaled already, {@code duplicate} (one job) or {@code duplicates} (a batch).
 */
public record ApiResponse<T>(
        @Schema(example = "true") boolean success,

        @Schema(description = "the HTTP status", example = "200")
        int code,

        @Schema(description = "\"ok\", or what was wrong", example = "ok")
        String message,

        T data,

        @Schema(description = "on 4xx: the offending field or parameter", example = "delay")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String field,

        @Schema(description = "on a push: true when the id was journaled already (the first job is kept)")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        Boolean duplicate,

        @Schema(description = "on a batch push: the ids journaled already (their first jobs are kept)")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        List<String> duplicates) {

    public static <T> ApiResponse<T> ok(T data) {
        return new ApiResponse<>(true, 200, "ok", data, null, null, null);
    }

    /** A single push: the id, and whether it was journaled before (then the first push's job is kept unchanged). */
    public static ApiResponse<String> pushed(String id, boolean duplicate) {
        return duplicate
                ? new ApiResponse<>(
                        true,
                        200,
                        "duplicate: job " + id + " exists already and is kept as it was",
                        id,
                        null,
                        true,
                        null)
                : ok(id);
    }

    /** A batch push: the ids in order, and those journaled before. */
    public static ApiResponse<List<String>> pushed(List<String> ids, Collection<String> duplicates) {
        return duplicates.isEmpty()
                ? ok(ids)
                : new ApiResponse<>(
                        true,
                        200,
                        "ok; " + duplicates.size() + " ids exist already and are kept as they were",
                        ids,
                        null,
                        null,
                        ids.stream().filter(duplicates::contains).toList());
    }

    public static ApiResponse<Void> error(int code, String message, String field) {
        return new ApiResponse<>(false, code, message, null, field, null, null);
    }
}
