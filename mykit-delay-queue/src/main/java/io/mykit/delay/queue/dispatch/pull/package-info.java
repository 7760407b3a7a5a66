/**
 * The built-in HTTP pull queue: due jobs wait in their topic's ready list until a puller reserves them.
 *
 * <h2>Classes</h2>
 *
 * <pre>
 * PullTarget     the delivery target "pull": hands jobs to ready lists, journals Ready; reserve and reserveAsync
 * LongPolls      where long-polls wait: on the caller's thread or as async polls; the poll workers, the safety
 *                re-check every pull.poll-interval, giving back jobs nobody received
 * AsyncPoll      one long-poll waiting without a thread (WAITING / RUNNING / DONE), answered by a worker
 * PollAnswer     how an async poll hands its jobs to the client; PendingPoll cancels it when the client is gone
 * Stream         one WebSocket consumer's stream over topics: looks up to its free credit, holds what it wrote,
 *                gives it back on close; StreamOutlet is where it writes
 * TopicSignals   the signal of each topic a poll waits on, and the cap pull.max-waiting-polls (more answer 429)
 * TopicSignal    one topic's waiters and wake-ups, oldest first; gone once no poll uses the topic
 * HotBuckets     the buckets this node made a topic's jobs ready in, looked at before a scan of every bucket
 * </pre>
 */
package io.mykit.delay.queue.dispatch.pull;
