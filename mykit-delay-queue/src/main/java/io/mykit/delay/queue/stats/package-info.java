/**
 * Operator statistics that stay cheap however many jobs wait: GET /stats reads counters and the heads of sorted sets,
 * never every job, and the console at /console draws them.
 *
 * <ul>
 *   <li>Pending, ready and in-flight per topic: the per-bucket counter hashes the store's scripts keep (see the store
 *       package), summed over buckets in one pipeline per Redis node.
 *   <li>Dead letters: in the journal only, counted through its (status, id) and (topic, status, id) indexes up to a
 *       cap, the all-topics count reused for a few seconds.
 *   <li>Next due and oldest overdue: exact over all topics (the index of each bucket's due slices); per topic a bounded
 *       sample of each bucket's head, which says when the answer may lie beyond it.
 *   <li>Due times over the next minutes: exact totals from a ZCOUNT per due slice; the spread over the minutes read job
 *       by job up to a budget per bucket, beyond it scaled from an even sample of slices (due_minutes.lua).
 *   <li>Lateness: this node's last hand-overs, in memory.
 * </ul>
 */
package io.mykit.delay.queue.stats;
