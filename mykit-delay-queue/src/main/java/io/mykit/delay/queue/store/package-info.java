/**
 * The Redis side of the queue: keys ({@link io.mykit.delay.queue.store.Keys}), Lua scripts (resources {@code lua/}),
 * and the bucket-count migration.
 *
 * <h2>Stage counters</h2>
 * Every bucket keeps a hash {@code {prefix:bi}:count} of {@code <stage>:<topic> -> jobs}, stage {@code w} waiting in the
 * delay set, {@code r} ready (in the pool, in neither set: queued for a puller), {@code f} in flight. The hash shares
 * the bucket's hash tag, so each script that moves a job updates it in the same atomic step and the same Redis Cluster
 * slot: add, put (respawn), pump_due, to_ready, reserve, release, retry, sweep, remove (finish, cancel), forget (ack,
 * burial as a dead letter), migrate_in / migrate_out (bucket-count change). A script reads the topic from the record
 * it already holds (lua/include/record.lua), sums its changes per field and writes each field once; a field that
 * reaches 0 is deleted, so topics that drained leave nothing behind.
 *
 * <h2>Job records</h2>
 * The pool maps a job id to its record ({@link io.mykit.delay.common.model.JobCodec}); the id is the field, so the
 * record does not repeat it. Its first byte says the format:
 * <pre>
 *   ~orders\n        '~' = compact, version 1; then the topic
 *   mid8ab3k\n       createTime, base 36
 *   1ahc\n           delay, base 36
 *   p5\n t3\n ...    only fields not at their default, each tagged: p priority, l ttl, t tries, a attempts,
 *                    s subtopic, k bizKey (numbers base 36)
 *   \n               an empty line ends the head (no head line is empty)
 *   body...          to the end of the record
 *
 *   {"id":...}       JSON, every field named: what versions before the compact record wrote
 * </pre>
 * Java and every script read both (scripts need the topic, and sweep / release the due time, ttl and tries), so a
 * Redis upgraded in place keeps its jobs. A job the compact form cannot hold exactly is written as JSON.
 * clearAll and a retired bucket delete the hash with the rest.
 * <pre>
 *   push ─▶ w ──pump──▶ f ──ack/finish──▶ (gone)        pull topics: f ──to_ready──▶ r ──reserve──▶ f
 *           ▲           │                                              f ──release/sweep/retry──▶ w
 *           └───retry───┘   cancel: w or r ──▶ (gone)    dead: f ──forget──▶ (gone, counted in the journal)
 * </pre>
 * Reading them costs one HGETALL per bucket (fields = stages x topics present), pipelined per node: independent of how
 * many jobs wait. Counters start right only with the store: {@code {prefix}:counted} marks that every bucket was
 * counted by recount.lua (a whole-bucket pass, atomic per bucket) or started empty with the counters. A store written
 * by an older version, or a Redis that lost its data, lacks the mark and is recounted once, at the first /stats read.
 * A node of an older version running beside a newer one does not keep the counters: recount after the upgrade
 * (POST /stats/recount).
 */
package io.mykit.delay.queue.store;
