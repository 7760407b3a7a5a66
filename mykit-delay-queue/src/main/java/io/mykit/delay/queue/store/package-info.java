/**
 * The Redis side of the queue: keys ({@link io.mykit.delay.queue.store.Keys}), Lua scripts (resources {@code lua/}),
 * and the bucket-count migration.
 *
 * <h2>Parts</h2>
 *
 * {@link io.mykit.delay.queue.store.DelayStore} is the whole of five interfaces, one per concern, and engine classes
 * take the narrowest they use:
 *
 * <pre>
 *   JobWrites      add, respawn, reschedule, delete (cancel), peek           RedisJobWrites
 *   Delivery       pump, to ready, reserve / unreserve, touch, release,      RedisDelivery
 *                  finish, sweep, forget, park, retry
 *   RestoreMarks   begin / keep / end restore, the add that obeys            RedisRestoreMarks
 *                  tombstones and finish marks, finish marks
 *   Fencing        claim, claim again, outranked                             RedisFencing
 *   StoreAdmin     epoch marks, clear                                        RedisStoreAdmin
 * </pre>
 *
 * {@link io.mykit.delay.queue.store.RedisDelayStore} hands each verb to its part; the parts share StoreCalls (the
 * connections, scripts, fencing tokens, retries and per-node pipelines), and a cancel, a finish and a forget share the
 * ending scripts' keys (Endings, lua/include/ending.lua). Pub/sub is {@link io.mykit.delay.queue.store.RedisChannels};
 * read-only sizes for metrics are {@link io.mykit.delay.queue.store.StoreCounts}.
 *
 * <h2>Scripts</h2>
 *
 * One script per step, each on the keys of one bucket (one hash tag, so one Redis Cluster slot). Rules several scripts
 * share are written once in {@code lua/include/} and placed where a script (or another include) says {@code --#include
 * <name>}, once per script: {@code clock} (the Redis clock in ms), {@code fence} and {@code fence_check} (the fencing
 * check), {@code stage} (a job's stage, with its keys), {@code ending} (the keys of the scripts that end jobs),
 * {@code record}, {@code counters}, {@code waiting}, {@code ready}, {@code parts} (commands over many values),
 * {@code drop}, {@code stale}.
 *
 * <h2>Stage counters</h2>
 *
 * Every bucket keeps a hash {@code {prefix:bi}:count} of {@code <stage>:<topic> -> jobs}, stage {@code w} waiting in
 * the due slices, {@code r} ready (in the pool, in neither set: queued for a puller), {@code f} in flight. The hash
 * shares the bucket's hash tag, so each script that moves a job updates it in the same atomic step and the same Redis
 * Cluster slot: add, respawn, pump_due, to_ready, reserve, release, retry, sweep, remove (finish, cancel), finish_all
 * (batch finish), forget (ack, burial as a dead letter), migrate_in / migrate_out (bucket-count change). A script reads
 * the topic from the record it already holds (lua/include/record.lua), sums its changes per field and writes each field
 * once; a field that reaches 0 is deleted, so topics that drained leave nothing behind. Fields {@code x:<topic>} count
 * something else: entries a finish or cancel left in the topic's ready list; once they are half of it, the ending
 * script rewrites the list without them (lua/include/stale.lua), so a topic nobody pulls does not grow with cancelled
 * jobs. Reading them costs one HGETALL per bucket (fields = stages x topics present), pipelined per node: independent
 * of how many jobs wait. Counters start right only with the store: {@code {prefix}:counted} marks that every bucket was
 * counted by recount.lua (a whole-bucket pass, atomic per bucket) or started empty with the counters. A store without
 * the mark (written without counters, or a Redis that lost its data) is recounted once, at the first /stats read. Nodes
 * sharing the Redis that do not keep the counters leave them wrong; POST /stats/recount counts afresh.
 *
 * <h2>Calls from Lua</h2>
 *
 * Each {@code redis.call} from a script has a cost of its own beyond the command, large beside a small command. So the
 * drain's scripts make one call per batch where no per-job answer is needed: pump_due reads a slice's records with one
 * HMGET and puts them in flight with one ZADD; to_ready asks which ids are still in flight with one ZMSCORE, then one
 * ZREM and one RPUSH; reserve pops with {@code LPOP key count} and reads with one HMGET (only the reservation count
 * stays a HINCRBY per job); a batch finish is one finish_all call per bucket (HMGET, ZMSCORE, then one ZREM / HDEL
 * each: {@code dropAll} in lua/include/drop.lua, shared with forget) instead of one remove.lua call per job. Commands
 * over more values than Lua's unpack takes run a thousand values at a time (lua/include/parts.lua).
 *
 * <h2>Due slices</h2>
 *
 * A bucket's waiting jobs are spread over 1,024 ZSETs {@code {prefix:bi}:due:<s>} (id -> due time), s a hash of the id
 * ({@link io.mykit.delay.queue.store.DelaySlices}, the same function in {@code lua/include/waiting.lua}); the index
 * {@code {prefix:bi}:due} maps each non-empty slice to its earliest due time. Small ZSETs keep Redis' listpack
 * encoding, which takes a fraction of the memory per job of one large ZSET's skiplist.
 *
 * <ul>
 *   <li>Every script that makes a job wait or stop waiting keeps the index exact in the same atomic step: a new member
 *       can only lower its slice's entry ({@code ZADD LT}); a removal or a changed score re-reads the slice's first.
 *   <li>The pump takes the index's earliest slice, hands over its jobs due no later than the next slice's earliest, and
 *       repeats: jobs leave in due order across the bucket, as they would from one ZSET.
 *   <li>The id decides the slice, so a lookup, cancel or finish reads one small ZSET; the due time may change (retry,
 *       release, sweep, reschedule) without moving the job between slices.
 *   <li>Counts read every slice's size through the index ({@code waiting_summary.lua}); the console's per-minute chart
 *       ({@code due_minutes.lua}) reads the jobs due within its horizon.
 *   <li>Single-ZSET data: waiting jobs may sit in one ZSET {@code {prefix:bi}:delay} per bucket (the layout without
 *       slices). Start-up moves them into the slices (BucketLayout, before a bucket migration, a page per atomic script
 *       call) and refuses to start beside live nodes while that ZSET is not empty: a node that writes the one-ZSET
 *       layout pumps only that ZSET. A job such a node adds there later is moved by the bucket owner's next sweep
 *       (sweep.lua), so it is not stranded where the pump does not look.
 * </ul>
 *
 * <h2>Job records</h2>
 *
 * The pool maps a job id to its record ({@link io.mykit.delay.common.model.JobCodec}); the id is the field, so the
 * record does not repeat it. Its first byte says the format:
 *
 * <pre>
 *   ~orders\n        '~' = compact, version 1; then the topic
 *   mid8ab3k\n       createTime, base 36
 *   1ahc\n           delay, base 36
 *   p5\n t3\n ...    only fields not at their default, each tagged: p priority, l ttl, t tries, a attempts,
 *                    s subtopic, k bizKey (numbers base 36)
 *   \n               an empty line ends the head (no head line is empty)
 *   body...          to the end of the record
 *
 *   {"id":...}       JSON, every field named: written with mykit.delay.redis.compact-records off
 * </pre>
 *
 * Java and every script read both (scripts need the topic, and sweep / release the due time, ttl and tries), so records
 * of either form in one Redis are read alike. A job the compact form cannot hold exactly is written as JSON. clearAll
 * and a retired bucket delete the hash with the rest.
 *
 * <pre>
 *   push ─▶ w ──pump──▶ f ──ack/finish──▶ (gone)        pull topics: f ──to_ready──▶ r ──reserve──▶ f
 *           ▲           │                                              f ──release/sweep/retry──▶ w
 *           └───retry───┘   cancel: w or r ──▶ (gone)    dead: f ──park──▶ f (spent) ──forget──▶ (gone, journaled Dead
 *                                                                 between the two; a sweep of a spent job buries it)
 *   finish (a puller's): f or w with a reservation count, or r; refused for f or w (due) without one
 *
 *   a node that routes every topic to the pull queue:   w ──pump (pump_due with the ready-key prefix)──▶ r
 * </pre>
 *
 * The last path is {@code Delivery.pumpDueToReady}: one atomic call instead of pump_due then to_ready, so a job is
 * never in flight between the two, a cancel has no gap to fall in, and a hand-over takes one script call fewer. The
 * ready list's key is built in the script from the record's topic, which the validator keeps to a plain alphabet, so it
 * names the same list as {@code Keys.ready} does.
 */
package io.mykit.delay.queue.store;
