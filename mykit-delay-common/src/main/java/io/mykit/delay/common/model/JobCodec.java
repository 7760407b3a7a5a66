package io.mykit.delay.common.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Turns a job into the record kept in the Redis job pool and back. The pool's field is the job id, so a record does not
 * repeat it. Two formats, told apart by the first character; the Lua scripts read both (lua/include/record.lua):
 *
 * <pre>
 *   compact (version 1)   ~topic \n createTime \n delay \n [tagged lines] \n body
 *                         tagged lines, only for fields not at their default: p priority, l ttl, t tries,
 *                         a attempts, s subtopic, k bizKey; numbers in base 36; the empty line ends the head
 *                         (no head line is empty) and the body runs to the end of the record
 *   JSON (before it)      {"id":...,"topic":...}   every field named, as Jackson writes a Job
 * </pre>
 *
 * A job the compact form cannot hold exactly (a newline in topic, subtopic or bizKey, an empty string that must stay
 * apart from null, a negative number) is written as JSON, which every reader still takes.
 */
public final class JobCodec {
    /** First character of a compact record, version 1; JSON starts with '{'. */
    public static final char COMPACT_V1 = '~';

    private static final char SEP = '\n';
    private static final int RADIX = 36;

    private static final ObjectMapper MAPPER =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private JobCodec() {}

    /** The compact record of a job, or its JSON record when the compact one could not hold it exactly. */
    public static String encode(Job job) {
        if (!fitsCompact(job)) {
            return encodeJson(job);
        }
        String body = job.getBody();
        StringBuilder out = new StringBuilder(32 + (body == null ? 0 : body.length()));
        out.append(COMPACT_V1)
                .append(job.getTopic())
                .append(SEP)
                .append(Long.toString(job.getCreateTime(), RADIX))
                .append(SEP)
                .append(Long.toString(job.getDelay(), RADIX))
                .append(SEP);
        tagged(out, 'p', job.getPriority());
        tagged(out, 'l', job.getTtl());
        tagged(out, 't', job.getTries());
        tagged(out, 'a', job.getAttempts());
        tagged(out, 's', job.getSubtopic());
        tagged(out, 'k', job.getBizKey());
        out.append(SEP);
        if (body != null) {
            out.append(body);
        }
        return out.toString();
    }

    /** The previous format, which every version reads: for jobs the compact one cannot hold, and older gateways. */
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
            default ->
                throw new IllegalStateException("job record of " + id + " in an unknown format: " + abbreviate(record));
        };
        job.setId(id);
        return job;
    }

    private static boolean fitsCompact(Job job) {
        String topic = job.getTopic();
        return topic != null
                && !topic.isEmpty()
                && topic.indexOf(SEP) < 0
                && nullOrPlain(job.getSubtopic())
                && nullOrPlain(job.getBizKey())
                && (job.getBody() == null || !job.getBody().isEmpty())
                && job.getCreateTime() >= 0
                && job.getDelay() >= 0
                && job.getPriority() >= 0
                && job.getTtl() >= 0
                && job.getTries() >= 0
                && job.getAttempts() >= 0;
    }

    /** Null is written as nothing, so an empty string could not be told from it. */
    private static boolean nullOrPlain(String s) {
        return s == null || (!s.isEmpty() && s.indexOf(SEP) < 0);
    }

    private static void tagged(StringBuilder out, char tag, long value) {
        if (value != 0) {
            out.append(tag).append(Long.toString(value, RADIX)).append(SEP);
        }
    }

    private static void tagged(StringBuilder out, char tag, String value) {
        if (value != null) {
            out.append(tag).append(value).append(SEP);
        }
    }

    private static Job decodeCompact(String id, String record) {
        try {
            int topicEnd = lineEnd(id, record, 1);
            int createdEnd = lineEnd(id, record, topicEnd + 1);
            int delayEnd = lineEnd(id, record, createdEnd + 1);
            Job job = new Job();
            job.setTopic(record.substring(1, topicEnd));
            job.setCreateTime(base36(record, topicEnd + 1, createdEnd));
            job.setDelay(base36(record, createdEnd + 1, delayEnd));
            int from = delayEnd + 1;
            int end = lineEnd(id, record, from);
            while (end > from) {
                switch (record.charAt(from)) {
                    case 'p' -> job.setPriority(Math.toIntExact(base36(record, from + 1, end)));
                    case 'l' -> job.setTtl(base36(record, from + 1, end));
                    case 't' -> job.setTries(Math.toIntExact(base36(record, from + 1, end)));
                    case 'a' -> job.setAttempts(Math.toIntExact(base36(record, from + 1, end)));
                    case 's' -> job.setSubtopic(record.substring(from + 1, end));
                    case 'k' -> job.setBizKey(record.substring(from + 1, end));
                    // a field a newer version added: this one has no use for it
                    default -> {}
                }
                from = end + 1;
                end = lineEnd(id, record, from);
            }
            job.setBody(end + 1 < record.length() ? record.substring(end + 1) : null);
            return job;
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalStateException("corrupt job record of " + id + ": " + abbreviate(record), e);
        }
    }

    /**
     * The non-negative base-36 number in {@code record[from, to)}, as {@link Long#toString(long, int)} writes it, read
     * in place: a drain decodes millions, and a substring plus {@link Long#parseLong(String, int)} per number took 6%
     * of the gateway's samples.
     */
    static long base36(String record, int from, int to) {
        if (from >= to) {
            throw new NumberFormatException("empty number at " + from);
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            char c = record.charAt(i);
            int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'z' ? c - 'a' + 10 : -1;
            if (digit < 0 || value > (Long.MAX_VALUE - digit) / RADIX) {
                throw new NumberFormatException("not a base-36 number below 2^63: " + record.substring(from, to));
            }
            value = value * RADIX + digit;
        }
        return value;
    }

    /** Where the head line starting at {@code from} ends. */
    private static int lineEnd(String id, String record, int from) {
        int end = record.indexOf(SEP, from);
        if (end < 0) {
            throw new IllegalStateException("truncated job record of " + id + ": " + abbreviate(record));
        }
        return end;
    }

    private static Job decodeJson(String record) {
        try {
            return MAPPER.readValue(record, Job.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("corrupt job record: " + abbreviate(record), e);
        }
    }

    private static String abbreviate(String s) {
        return s == null || s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }
}
