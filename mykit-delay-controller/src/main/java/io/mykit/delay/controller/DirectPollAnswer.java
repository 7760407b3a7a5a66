package io.mykit.delay.controller;

import com.fasterxml.jackson.databind.ObjectWriter;
import io.mykit.delay.common.model.Job;
import io.mykit.delay.queue.dispatch.pull.PendingPoll;
import io.mykit.delay.queue.dispatch.pull.PollAnswer;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * The answer to one long-poll (a single job, or a batch: {@link #batch}), written by whichever thread has it. A poll
 * answered while its request is still in the handler is written there, synchronously; a later one goes to the servlet's
 * async response and completes it. A DeferredResult would instead hand the answer to another Tomcat thread and run the
 * whole filter chain and handler lookup a second time, a large part of a GET's cost.
 *
 * <p>States: OPEN (handler running) -> ANSWERED (answer kept for the handler) or WAITING (async) -> DONE. An answer
 * that finds the poll DONE (timed out, client gone) is refused, so the poll gives its jobs back.
 */
final class DirectPollAnswer implements PollAnswer {
    private static final Logger log = LoggerFactory.getLogger(DirectPollAnswer.class);
    private static final int OPEN = 0;
    private static final int ANSWERED = 1;
    private static final int WAITING = 2;
    private static final int DONE = 3;

    private final HttpServletRequest request;
    private final HttpServletResponse response;
    private final ObjectWriter writer;
    /** Who polls: the jobs are answered with their ids as it spells them. */
    private final Caller caller;
    /** A batch poll answers its list, [] when none came; a single one its first job, null when none came. */
    private final boolean batch;

    private AsyncContext async;
    private IntConsumer reserved = jobs -> {};
    private Runnable ended = () -> {};
    private BooleanSupplier revoked = () -> false;
    private int state = OPEN;
    private Object early;

    private DirectPollAnswer(
            HttpServletRequest request, HttpServletResponse response, ObjectWriter writer, boolean batch) {
        this.request = request;
        this.response = response;
        this.writer = writer;
        this.caller = Caller.of(request);
        this.batch = batch;
    }

    /** The answer to {@code GET /get/{topic}}: one job or null. */
    static DirectPollAnswer single(HttpServletRequest request, HttpServletResponse response, ObjectWriter writer) {
        return new DirectPollAnswer(request, response, writer, false);
    }

    /** The answer to {@code GET /get/{topic}/batch}: the jobs reserved, [] when none came. */
    static DirectPollAnswer batch(HttpServletRequest request, HttpServletResponse response, ObjectWriter writer) {
        return new DirectPollAnswer(request, response, writer, true);
    }

    /** {@code reserved} hears how many jobs an answer taken carries; {@code ended} runs when a waiting poll ends. */
    void whenAnswered(IntConsumer reserved, Runnable ended) {
        this.reserved = reserved;
        this.ended = ended;
    }

    /** {@code revoked} tells whether the caller lost its right to an answer (its token revoked) meanwhile. */
    void revokedWhen(BooleanSupplier revoked) {
        this.revoked = revoked;
    }

    @Override
    public boolean revoked() {
        return revoked.getAsBoolean();
    }

    @Override
    public boolean jobs(List<Job> jobs) {
        if (revoked()) {
            // the token was taken out while the poll waited: 401, and the jobs go back for a caller who holds one
            answer(TenantAccessException.unknownToken());
            return false;
        }
        boolean taken = batch
                ? answer(ApiResponse.ok(shown(jobs)))
                : answer(ApiResponse.ok(jobs.isEmpty() ? null : caller.shown(jobs.get(0))));
        if (taken && !jobs.isEmpty()) {
            reserved.accept(jobs.size());
        }
        return taken;
    }

    private List<Job> shown(List<Job> jobs) {
        return caller.namespaced() ? jobs.stream().map(caller::shown).toList() : jobs;
    }

    @Override
    public void failed(RuntimeException e) {
        answer(e);
    }

    /** Writes and completes outside the lock: the container's own threads take it in the listener. */
    private boolean answer(Object reply) {
        synchronized (this) {
            if (state == OPEN) {
                early = reply;
                state = ANSWERED;
                return true;
            }
            if (state != WAITING) {
                return false;
            }
            state = DONE;
        }
        try {
            write(reply);
        } catch (IOException | RuntimeException e) {
            // the client is gone mid-answer: a reserved job comes back after its ttr, as with any lost answer
            log.debug("long-poll answer not written: {}", e.toString());
        } finally {
            async.complete();
        }
        return true;
    }

    /**
     * Run by the handler once the poll is registered: writes an answer that came meanwhile (an error is thrown to
     * Spring's exception handlers, as from any handler), or leaves the request waiting, async, for at most
     * {@code backstopMs}. Answers whether the request was left waiting.
     */
    boolean afterRegistered(PendingPoll poll, long backstopMs) throws IOException {
        Object answered;
        synchronized (this) {
            if (state == OPEN) {
                async = request.startAsync(request, response);
                async.setTimeout(backstopMs);
                async.addListener(new Ending(poll));
                state = WAITING;
                return true;
            }
            answered = early;
        }
        if (answered instanceof RuntimeException failure) {
            throw failure;
        }
        write(answered);
        return false;
    }

    private void write(Object reply) throws IOException {
        if (reply instanceof RuntimeException failure) {
            ResponseEntity<ApiResponse<Void>> error = ApiExceptionHandler.forFailure(failure);
            response.setStatus(error.getStatusCode().value());
            reply = error.getBody();
        }
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        writer.writeValue(response.getOutputStream(), reply);
    }

    /** The container's side: the backstop timeout answers empty; an error or the end cancels the poll. */
    private final class Ending implements AsyncListener {
        private final PendingPoll poll;

        Ending(PendingPoll poll) {
            this.poll = poll;
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            poll.cancel();
            jobs(List.of());
        }

        @Override
        public void onError(AsyncEvent event) {
            synchronized (DirectPollAnswer.this) {
                state = DONE;
            }
            poll.cancel();
            ended.run();
        }

        @Override
        public void onComplete(AsyncEvent event) {
            poll.cancel();
            ended.run();
        }

        @Override
        public void onStartAsync(AsyncEvent event) {}
    }
}
