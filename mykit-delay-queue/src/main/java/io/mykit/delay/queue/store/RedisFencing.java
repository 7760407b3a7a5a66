package io.mykit.delay.queue.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;

/** {@link Fencing} on Redis: each bucket's owner key holds its newest token; claim.lua raises it, never lowers it. */
final class RedisFencing implements Fencing {
    private final StoreCalls calls;
    private final Keys keys;
    private final FenceTokens fence;

    RedisFencing(StoreCalls calls) {
        this.calls = calls;
        this.keys = calls.keys();
        this.fence = calls.fence();
    }

    @Override
    public void claim(int bucket, String token) {
        calls.evalFenced(bucket, calls.scripts().claim, List.of(keys.owner(bucket)), List.of(token));
    }

    @Override
    public Set<Integer> claimAgain(Collection<Integer> buckets) {
        List<Integer> order = List.copyOf(buckets);
        if (order.isEmpty()) {
            return Set.of();
        }
        List<Object> replies = calls.pipelined(pipe -> {
            List<Response<Object>> out = new ArrayList<>(order.size());
            for (int b : order) {
                out.add(StoreCalls.evalsha(
                        pipe, calls.scripts().claim, List.of(keys.owner(b)), List.of(fence.token(b))));
            }
            return out;
        });
        Set<Integer> outranked = new TreeSet<>();
        for (int i = 0; i < replies.size(); i++) {
            if (replies.get(i) instanceof JedisDataException) {
                outranked.add(order.get(i));
                fence.refused(order.get(i));
            }
        }
        return outranked;
    }

    @Override
    public Set<Integer> outranked(Collection<Integer> buckets) {
        List<Integer> fenced = buckets.stream()
                .distinct()
                .filter(b -> !fence.token(b).isEmpty())
                .toList();
        if (fenced.isEmpty()) {
            return Set.of();
        }
        return calls.step(() -> {
            List<Response<String>> newest = new ArrayList<>(fenced.size());
            try (NodePipelines<?> pipes = calls.redis().pipelines()) {
                fenced.forEach(b -> newest.add(pipes.on(keys.owner(b)).get(keys.owner(b))));
                pipes.sync();
            }
            Set<Integer> outranked = new TreeSet<>();
            for (int i = 0; i < fenced.size(); i++) {
                String token = newest.get(i).get();
                if (token != null && token.compareTo(fence.token(fenced.get(i))) > 0) {
                    outranked.add(fenced.get(i));
                    fence.refused(fenced.get(i));
                }
            }
            return outranked;
        });
    }
}
