package io.mykit.delay.queue.dispatch.pull;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.store.Delivery;
import io.mykit.delay.queue.store.PumpResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The free credit of some open streams, promised to one pump so that it reserves due jobs for them in the same call
 * (the direct hand-over); settled once, with the jobs the pump reserved, or with none when it failed.
 */
public final class StreamClaims {
    /** No stream to claim for: the pump puts every job in its ready list. */
    public static final StreamClaims NONE = new StreamClaims(List.of(), List.of());

    private final List<Stream> streams;
    private final List<Integer> promised;
    private boolean settled;

    private StreamClaims(List<Stream> streams, List<Integer> promised) {
        this.streams = streams;
        this.promised = promised;
    }

    /** Claims up to {@code max} of the free credit of each of {@code open}, skipping streams with none. */
    static StreamClaims of(List<Stream> open, int max) {
        List<Stream> streams = new ArrayList<>();
        List<Integer> promised = new ArrayList<>();
        for (Stream stream : open) {
            int room = stream.claim(max);
            if (room > 0) {
                streams.add(stream);
                promised.add(room);
            }
        }
        return streams.isEmpty() ? NONE : new StreamClaims(streams, promised);
    }

    /** The claims as the store takes them, in order: a reserved job names its claim by this index. */
    public List<Delivery.Claim> forStore() {
        List<Delivery.Claim> claims = new ArrayList<>(streams.size());
        for (int i = 0; i < streams.size(); i++) {
            Stream stream = streams.get(i);
            claims.add(new Delivery.Claim(stream.topics(), promised.get(i), stream.ttrMs()));
        }
        return claims;
    }

    /** Hands each stream the jobs reserved for it; the rest of every promise is free credit again. Once only. */
    synchronized void settle(List<PumpResult.Reserved> reserved) {
        if (settled) {
            return;
        }
        settled = true;
        List<List<Job>> jobs = new ArrayList<>(streams.size());
        streams.forEach(stream -> jobs.add(new ArrayList<>()));
        reserved.forEach(each -> jobs.get(each.claim()).add(each.job()));
        for (int i = 0; i < streams.size(); i++) {
            streams.get(i).claimed(promised.get(i), jobs.get(i));
        }
    }

    /** Settles with no jobs if the pump did not (it failed): the promised credit is free again. */
    public void release() {
        settle(List.of());
    }
}
