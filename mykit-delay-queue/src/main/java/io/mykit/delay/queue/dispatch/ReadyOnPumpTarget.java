package io.mykit.delay.queue.dispatch;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.store.PumpResult;
import java.util.List;

/**
 * A target whose jobs a pump may put in their ready lists itself, or reserve for consumers with free credit, in the
 * same call: the dispatcher then only finishes the hand-over. The pull queue, where every topic goes to it.
 */
public interface ReadyOnPumpTarget extends DeliveryTarget {

    /** Claims free credit of consumers, each up to {@code max} jobs, for one pump; {@link PumpClaims#NONE} if none. */
    PumpClaims claims(int max);

    /** A pump reserved {@code reserved} for the consumers of {@code claims}: settles them and journals the jobs. */
    void reservedOnPump(PumpClaims claims, List<PumpResult.Reserved> reserved);

    /** The rest of a hand-over once a pump put {@code jobs} of {@code bucket} in their ready lists itself. */
    void readied(int bucket, List<Job> jobs);
}
