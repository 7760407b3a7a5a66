package io.mykit.delay.queue.dispatch.pull;

import io.mykit.delay.common.error.TooManyPollsException;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.common.model.JobStatus;
import io.mykit.delay.queue.dispatch.PumpClaims;
import io.mykit.delay.queue.dispatch.ReadyOnPumpTarget;
import io.mykit.delay.queue.journal.StateChange;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.metrics.QueueMetrics;
import io.mykit.delay.queue.store.Delivery;
import io.mykit.delay.queue.store.PumpResult;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The built-in HTTP pull queue: due jobs go to their topic's ready list; pullers reserve one for a ttr and finish it,
 * or the sweeper makes it due again when the ttr runs out. A long-poll looks once when it arrives, then waits per
 * topic, costing Redis nothing, until a hand-over to its topic wakes it: one on this node directly, one on another node
 * through the wake bus ({@link #wakeTopic}). A slow safety re-check ({@code safetyIntervalMs}: one read of the
 * {@link HandOverCounts}, then one look per waiting topic another node handed jobs to) bounds what a lost cross-node
 * wake-up costs. A long-poll waits either on its own thread ({@link #reserve}) or as a registered poll answered by the
 * poll workers ({@link #reserveAsync}, what the HTTP routes uses: a waiting poll then holds no web server thread). At
 * most {@code maxPolls} polls run at once; one more is refused ({@link TooManyPollsException}). Long-polls wait in
 * {@link LongPolls}; a look tries the topic's {@link HotBuckets} first.
 */
public class PullTarget implements ReadyOnPumpTarget, AutoCloseable {
    public static final String NAME = "pull";
    public static final int DEFAULT_POLL_WORKERS = 2;
    public static final int DEFAULT_MAX_POLLS = 4_096;

    private final Delivery store;
    private final StateChangeWriter states;
    private final Clock clock;
    private final HotBuckets hotBuckets;
    private final LongPolls polls;
    /** Streams whose free credit one pump may claim: a claim's topics travel with the pump's call. */
    static final int CLAIMS_PER_PUMP = 8;

    /** Replaced whole on open and close, which are rare, so that every pump's claims read it without a copy. */
    private volatile List<Stream> streams = List.of();

    private final AtomicInteger claimTurn = new AtomicInteger();
    private volatile QueueMetrics metrics = QueueMetrics.NONE;

    public PullTarget(Delivery store, StateChangeWriter states, Clock clock, long safetyIntervalMs) {
        this(store, states, clock, safetyIntervalMs, DEFAULT_POLL_WORKERS, DEFAULT_MAX_POLLS);
    }

    /**
     * {@code pollWorkers} threads run the reservations of waiting long-polls, however many of them wait; at most
     * {@code maxPolls} polls run at once.
     */
    public PullTarget(
            Delivery store,
            StateChangeWriter states,
            Clock clock,
            long safetyIntervalMs,
            int pollWorkers,
            int maxPolls) {
        this(store, states, clock, safetyIntervalMs, pollWorkers, maxPolls, HandOverCounts.NONE);
    }

    /** {@code handOvers}: where the nodes count their hand-overs for each other's safety re-checks. */
    public PullTarget(
            Delivery store,
            StateChangeWriter states,
            Clock clock,
            long safetyIntervalMs,
            int pollWorkers,
            int maxPolls,
            HandOverCounts handOvers) {
        this.store = store;
        this.states = states;
        this.clock = clock;
        this.hotBuckets = new HotBuckets(store, clock);
        this.polls = new LongPolls(store, hotBuckets, clock, safetyIntervalMs, pollWorkers, maxPolls, handOvers);
    }

    /** Every topic with a waiting poll looks once, oldest poll first: wake-ups may have been lost meanwhile. */
    public void lookAgain() {
        polls.lookAgain();
    }

    /** Counts this node's hand-overs to {@code topics} for the safety re-checks of the other nodes. */
    public void countHandOvers(Collection<String> topics) {
        polls.countHandOvers(topics);
    }

    /** Safety re-checks of the long-polls run so far. */
    public long safetyChecks() {
        return polls.safetyChecks();
    }

    /** Where deliveries to ready lists are reported. */
    public void metrics(QueueMetrics metrics) {
        this.metrics = metrics;
    }

    /** Told of every hand-over to a topic, so long-polls waiting on other nodes can be woken. */
    public void onHandedOver(ReadyListener listener) {
        polls.onHandedOver(listener);
    }

    /** Jobs of {@code topic} became ready on another node: wake as many local long-polls as they need. */
    public void wakeTopic(String topic, int jobs) {
        polls.wakeTopic(topic, jobs);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void deliver(int bucket, List<Job> jobs) {
        byTopic(jobs).forEach((topic, ids) -> store.toReady(bucket, topic, ids));
        readied(bucket, jobs);
    }

    /**
     * The rest of a hand-over once the jobs are in their ready lists (by {@link #deliver}, or by a pump that put them
     * there itself, {@link Delivery#pumpDueToReady}): journals Ready, wakes the topics' long-polls, reports them.
     */
    @Override
    public void readied(int bucket, List<Job> jobs) {
        long now = clock.millis();
        List<StateChange> changes = new ArrayList<>(jobs.size());
        byTopic(jobs).forEach((topic, ids) -> {
            hotBuckets.add(topic, bucket, now);
            ids.forEach(id -> changes.add(StateChange.of(id, JobStatus.Ready, now)));
            polls.ready(topic, ids.size());
        });
        states.submitAll(changes);
        // for a pull topic, delivered means in its ready list: the puller's finish is the consumer's business
        jobs.forEach(job -> metrics.delivered(NAME, job));
    }

    private static Map<String, List<String>> byTopic(List<Job> jobs) {
        Map<String, List<String>> idsByTopic = new LinkedHashMap<>();
        jobs.forEach(job -> idsByTopic
                .computeIfAbsent(job.getTopic(), t -> new ArrayList<>())
                .add(job.getId()));
        return idsByTopic;
    }

    /**
     * Reserves up to {@code max} ready jobs of the topic for {@code ttrMs}, waiting up to {@code timeoutMs} for one.
     */
    public List<Job> reserve(String topic, int max, long ttrMs, long timeoutMs) throws InterruptedException {
        return polls.reserve(topic, max, ttrMs, timeoutMs);
    }

    /**
     * {@link #reserve} without holding the caller's thread: looks once at once, then waits as a registered poll that a
     * hand-over, the topic's safety re-check or the deadline answers. Jobs reserved for a poll whose client went away
     * are given back, first in their ready list and not counted as a try.
     */
    public PendingPoll reserveAsync(String topic, int max, long ttrMs, long timeoutMs, PollAnswer answer) {
        return polls.reserveAsync(topic, max, ttrMs, timeoutMs, answer);
    }

    /**
     * Opens a stream over {@code topics}: it reserves their due jobs for {@code ttrMs} as they come, at most
     * {@code credit} held at once, and writes them to {@code outlet}. Its first look runs at once on a poll worker.
     */
    public Stream openStream(List<String> topics, int credit, long ttrMs, StreamOutlet outlet) {
        Stream stream = new Stream(polls, topics, credit, ttrMs, outlet, this::closed);
        synchronized (this) {
            List<Stream> more = new ArrayList<>(streams);
            more.add(stream);
            streams = List.copyOf(more);
        }
        stream.start();
        return stream;
    }

    /**
     * Claims the free credit of up to {@link #CLAIMS_PER_PUMP} open streams, each up to {@code max} jobs, for a pump
     * that reserves due jobs for them directly; taken in turn, so that every stream has its share of pumps.
     */
    @Override
    public PumpClaims claims(int max) {
        List<Stream> open = streams;
        if (open.isEmpty()) {
            return PumpClaims.NONE;
        }
        int start = Math.floorMod(claimTurn.getAndIncrement(), open.size());
        List<Stream> turn = new ArrayList<>(Math.min(CLAIMS_PER_PUMP, open.size()));
        for (int i = 0; i < open.size() && turn.size() < CLAIMS_PER_PUMP; i++) {
            turn.add(open.get((start + i) % open.size()));
        }
        return StreamClaims.of(turn, max);
    }

    /**
     * A pump reserved {@code reserved} for the streams of {@code claims}: they hold and write them now; journals Ready
     * (handed over) and reports them as delivered, as a hand-over to a ready list does.
     */
    @Override
    public void reservedOnPump(PumpClaims claims, List<PumpResult.Reserved> reserved) {
        claims.settle(reserved);
        if (reserved.isEmpty()) {
            return;
        }
        long now = clock.millis();
        List<StateChange> changes = new ArrayList<>(reserved.size());
        reserved.forEach(each -> changes.add(StateChange.of(each.job().getId(), JobStatus.Ready, now)));
        states.submitAll(changes);
        reserved.forEach(each -> metrics.delivered(NAME, each.job()));
    }

    private synchronized void closed(Stream stream) {
        List<Stream> fewer = new ArrayList<>(streams);
        fewer.remove(stream);
        streams = List.copyOf(fewer);
    }

    /** Streams open on this node right now. */
    public int openStreams() {
        return streams.size();
    }

    /** Long-polls waiting without a thread right now. */
    public int waitingPolls() {
        return polls.waitingPolls();
    }

    /** Topics with a long-poll waiting right now. */
    public int waitingTopics() {
        return polls.waitingTopics();
    }

    /** Topics whose hot buckets this node remembers. */
    public int hotTopics() {
        return hotBuckets.topics();
    }

    /** Long-polls whose caller lost its right to an answer (a token revoked by a reload) end now, with no job. */
    public void endRevokedPolls() {
        polls.endRevoked();
    }

    /** The gateway is stopping: long-polls answer with what they have now instead of holding the web server's drain. */
    public void stopWaiting() {
        polls.stopWaiting();
        // the connections end, and their held jobs go back now, while Redis is still there
        streams.forEach(stream -> {
            stream.stopping();
            stream.close();
        });
    }

    /** Stops the poll workers (after {@link #stopWaiting} answered the waiting polls). */
    @Override
    public void close() {
        polls.close();
    }
}
