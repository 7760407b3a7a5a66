package io.mykit.delay.queue.dispatch.pull;

import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.dispatch.PumpClaims;
import io.mykit.delay.queue.store.Delivery;
import io.mykit.delay.queue.store.PumpResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The free credit of some open streams, promised to one pump so that it reserves due jobs for them in the same call
 * (the direct hand-over); settled once, with the jobs the pump reserved, or with none when it failed.
 */
final class StreamClaims implements PumpClaims {

    private final List<Stream> streams;
    private final List<Integer> promised;
    private boolean settled;

    private StreamClaims(List<Stream> streams, List<Integer> promised) {
        this.streams = streams;
        this.promised = promised;
    }

    /** Claims up to {@code max} of the free credit of each of {@code open}, skipping streams with none. */
    static PumpClaims of(List<Stream> open, int max) {
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

    @Override
    public List<Delivery.Claim> forStore() {
        List<Delivery.Claim> claims = new ArrayList<>(streams.size());
        for (int i = 0; i < streams.size(); i++) {
            Stream stream = streams.get(i);
            claims.add(new Delivery.Claim(stream.topics(), promised.get(i), stream.ttrMs()));
        }
        return claims;
    }

    /** Hands each stream the jobs reserved for it; the rest of every promise is free credit again. Once only. */
    @Override
    public synchronized void settle(List<PumpResult.Reserved> reserved) {
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
}
