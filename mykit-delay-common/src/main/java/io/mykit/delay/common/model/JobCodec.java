package io.mykit.delay.common.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Turns a job into the record kept in the Redis job pool and back. The pool's field is the job id, so a record does
 * not repeat it. Two formats, told apart by the first character; the Lua scripts read both (lua/include/record.lua):
 * <pre>
 *   compact (version 1)   ~topic\ncreateTime\ndelay\npriority\nttl\ntries\nattempts\nsubtopic\nbizKey\nbody
 *                         numbers in base 36, 0 and null written as nothing; the body runs to the end
 *   JSON (before it)      {"id":...,"topic":...}   every field named, as Jackson writes a Job
 * </pre>
 * A job the compact form cannot hold exactly (a newline in topic, subtopic or bizKey, an empty string that must stay
 * apart from null, a negative number) is written as JSON, which every reader still takes.
 */
public final class JobCodec {
    /** First character of a compact record, version 1; JSON starts with '{'. */
    public static final char COMPACT_V1 = '~';
    private static final char SEP = '\n';
    private static final int RADIX = 36;
    /** The fields before the body: topic, createTime, delay, priority, ttl, tries, attempts, subtopic, bizKey. */
    private static final int HEAD_FIELDS = 9;

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private JobCodec() {
    }

    /** The compact record of a job, or its JSON record when the compact one could not hold it exactly. */
    public static String encode(Job job) {
        if (!fitsCompact(job)) {
            return encodeJson(job);
        }
        String body = job.getBody();
        StringBuilder out = new StringBuilder(48 + (body == null ? 0 : body.length()));
        out.append(COMPACT_V1).append(job.getTopic()).append(SEP);
        number(out, job.getCreateTime());
        number(out, job.getDelay());
        number(out, job.getPriority());
        number(out, job.getTtl());
        number(out, job.getTries());
        number(out, job.getAttempts());
        text(out, job.getSubtopic());
        text(out, job.getBizKey());
        if (body != null) {
            out.append(body);
        }
        return out.toString();
    }

    /** The record format before the compact one: written only for nodes of an older version that share the Redis. */
    public static String encodeJson(Job job) {
        try {
            return MAPPER.writeValueAsString(job);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode job " + job.getId(), e);
        }
    }

    /** The job kept under {@code id} as {@code record}, in either format. */
    public static Job decode(String id, String record) {
        if (record == null || record.isEmpty()) {
            throw new IllegalStateException("empty job record of " + id);
        }
        Job job = switch (record.charAt(0)) {
            case COMPACT_V1 -> decodeCompact(id, record);
            case '{' -> decodeJson(record);
            default -> throw new IllegalStateException("job record of " + id + " in an unknown format: "
                    + abbreviate(record));
        };
        job.setId(id);
        return job;
    }

    private static boolean fitsCompact(Job job) {
        String topic = job.getTopic();
        return topic != null && !topic.isEmpty() && topic.indexOf(SEP) < 0
                && nullOrPlain(job.getSubtopic()) && nullOrPlain(job.getBizKey())
                && (job.getBody() == null || !job.getBody().isEmpty())
                && job.getCreateTime() >= 0 && job.getDelay() >= 0 && job.getPriority() >= 0 && job.getTtl() >= 0
                && job.getTries() >= 0 && job.getAttempts() >= 0;
    }

    /** Null is written as nothing, so an empty string could not be told from it. */
    private static boolean nullOrPlain(String s) {
        return s == null || (!s.isEmpty() && s.indexOf(SEP) < 0);
    }

    private static void number(StringBuilder out, long value) {
        if (value != 0) {
            out.append(Long.toString(value, RADIX));
        }
        out.append(SEP);
    }

    private static void text(StringBuilder out, String value) {
        if (value != null) {
            out.append(value);
        }
        out.append(SEP);
    }

    private static Job decodeCompact(String id, String record) {
        String[] head = new String[HEAD_FIELDS];
        int from = 1;
        for (int i = 0; i < HEAD_FIELDS; i++) {
            int end = record.indexOf(SEP, from);
            if (end < 0) {
                throw new IllegalStateException("truncated job record of " + id + ": " + abbreviate(record));
            }
            head[i] = record.substring(from, end);
            from = end + 1;
        }
        try {
            return new JobBuilder(head, from < record.length() ? record.substring(from) : null).job();
        } catch (NumberFormatException e) {
            throw new IllegalStateException("corrupt job record of " + id + ": " + abbreviate(record), e);
        }
    }

    private static Job decodeJson(String record) {
        try {
            return MAPPER.readValue(record, Job.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("corrupt job record: " + abbreviate(record), e);
        }
    }

    /** The head fields of a compact record, in their order, and its body. */
    private record JobBuilder(String[] head, String body) {
        Job job() {
            Job job = new Job(null, head[0], emptyAsNull(head[7]), emptyAsNull(head[8]), number(head[2]),
                    (int) number(head[3]), number(head[4]), (int) number(head[5]), body, number(head[1]));
            job.setAttempts((int) number(head[6]));
            return job;
        }

        private static long number(String digits) {
            return digits.isEmpty() ? 0 : Long.parseLong(digits, RADIX);
        }

        private static String emptyAsNull(String s) {
            return s.isEmpty() ? null : s;
        }
    }

    private static String abbreviate(String s) {
        return s == null || s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }
}
