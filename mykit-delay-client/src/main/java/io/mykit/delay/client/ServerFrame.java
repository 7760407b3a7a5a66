package io.mykit.delay.client;

import java.util.List;
import java.util.Map;

/** A frame the gateway writes on a stream, as {@link Frames#decode} reads it. */
sealed interface ServerFrame {
    /** Due jobs, now held by the stream. */
    record Jobs(List<ReceivedJob> jobs) implements ServerFrame {}

    /** The gateway is alive (it pings a stream idle for a while). */
    record Ping() implements ServerFrame {}

    /** The answer to the consumer's ping. */
    record Pong() implements ServerFrame {}

    /**
     * What an acknowledgement did: {@code action} (finish, release, touch, bury) applied to {@code ids};
     * {@code refused} ids with the reason; {@code dead} the released jobs that were out of tries and are dead letters
     * now.
     */
    record Ended(String action, List<String> ids, Map<String, String> refused, List<String> dead)
            implements ServerFrame {}

    /** Something the gateway could not do for the stream. */
    record ErrorReport(String message) implements ServerFrame {}

    /** A type this client does not know: newer gateways may write more. */
    record Unknown(String type) implements ServerFrame {}
}
