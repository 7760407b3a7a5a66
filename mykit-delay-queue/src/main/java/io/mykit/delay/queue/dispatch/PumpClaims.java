package io.mykit.delay.queue.dispatch;

import io.mykit.delay.queue.store.Delivery;
import io.mykit.delay.queue.store.PumpResult;
import java.util.List;

/**
 * Free credit of some consumers, promised to one pump so that it reserves due jobs for them in the same call (the
 * direct hand-over); settled once, with the jobs the pump reserved, or with none when it failed.
 */
public interface PumpClaims {
    /** No consumer to claim for: the pump puts every job in its ready list. */
    PumpClaims NONE = new PumpClaims() {
        @Override
        public List<Delivery.Claim> forStore() {
            return List.of();
        }

        @Override
        public void settle(List<PumpResult.Reserved> reserved) {}
    };

    /** The claims as the store takes them, in order: a reserved job names its claim by this index. */
    List<Delivery.Claim> forStore();

    /** Hands each claimant the jobs reserved for it; the rest of every promise is free credit again. Once only. */
    void settle(List<PumpResult.Reserved> reserved);

    /** Settles with no jobs if the pump did not (it failed): the promised credit is free again. */
    default void release() {
        settle(List.of());
    }
}
