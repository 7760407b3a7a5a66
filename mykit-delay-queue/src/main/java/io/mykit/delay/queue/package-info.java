/**
 * The engine: Redis store, Lua scripts, timers, dispatch, journal and recovery.
 *
 * <h2>Redis keys (all keys of bucket i share the hash tag {@code {prefix:bi}})</h2>
 *
 * <pre>
 * {prefix:bi}:due         ZSET   slice -> its earliest due    index of the non-empty due slices
 * {prefix:bi}:due:s       ZSET   id -> due time               waiting, s = DelaySlices.of(id) (store package-info)
 * {prefix:bi}:inflight    ZSET   id -> deadline               handed over or reserved, not acked
 * {prefix:bi}:job         HASH   id -> record                 the pool: present = alive
 * {prefix:bi}:ready:t     LIST   ids of pull topic t          due, waiting for a puller
 * {prefix:bi}:reserved    HASH   id -> pull reservations      counts tries of pull jobs; gone when the job ends
 * {prefix:bi}:restoring   STRING restores running (counter)   while set, every end leaves a tombstone
 * {prefix:bi}:ended       ZSET   id -> end time               tombstones: a restore never re-adds these
 * {prefix:bi}:finished    ZSET   id -> finish time            pull finishes answered, Finish not yet journaled
 * {prefix:bi}:count       HASH   w:|r:|f:topic -> jobs       waiting / ready / in flight per topic (store package-info)
 * {prefix:bi}:epoch       STRING                              missing = Redis (the node of this slot) lost the data
 * {prefix}:layout         STRING bucket count N                every job is in bucket Buckets.of(id, N)
 * {prefix}:layout-target  STRING bucket count M                a migration N -> M runs (or was interrupted)
 * </pre>
 *
 * <h2>Guarantees and the windows they close</h2>
 *
 * <ul>
 *   <li>A push is answered 200 once its journal row and its group's storing row are committed (and Redis took it, or
 *       failed). If the Redis step fails, the storing row stays and the stranded-job repairer stores the group once
 *       Redis answers: a 200 is never lost, a 503 journaled nothing.
 *   <li>Ended stays ended: a job's first end (Finish, Delete, Dead) is never replaced, by a non-ended state or by a
 *       later end (a broker's Finish after the burial's Dead, a send confirmed after a dead letter was dropped): across
 *       batches by every status UPDATE's guard ({@code status NOT IN} the ended ones, on every path: a direct apply,
 *       the state writer, the ledger fold), within one batch by {@code StateChange.finalPerJob}, in reads by the
 *       ledger's overlay. Only the operator's dead-letter respawn and drop move an ended row
 *       ({@code Journal.transition}). A late end left out is counted ({@code mykit.delay.journal.ended.kept}); the log
 *       keeps its row.
 *   <li>A cancel succeeds only for a job still waiting (delay bucket or ready list): removal and pump/reserve are
 *       atomic scripts of one bucket, so a cancelled job can no longer be handed over. A job already handed over or
 *       reserved (in flight) answers 409.
 *   <li>A finish acknowledges a pull job: one a puller reserved (its reservation count is in {@code reserved}: in
 *       flight, or back in its bucket after the reservation ran out or was released) or one in a pull topic's ready
 *       list. Every spelling (single, REST, batch) runs {@code remove.lua} or {@code finish_all.lua}, which refuse, in
 *       the same atomic step, a job in flight with no reservation (a broker sender has it: the broker delivers it, and
 *       a finish taking it would leave it undelivered when the send then fails) and a due job waiting that no puller
 *       ever had (its hand-over, maybe to a broker, is still to come): 409, nothing changed.
 *   <li>A restore cannot bring back a job that ended while it ran: it raises {@code restoring} in every bucket, waits
 *       for ends already under way to be submitted ({@code StateChangeWriter.awaitEndings}) and written, then reads the
 *       journal; every end while {@code restoring} is set leaves a tombstone that the restore's add skips.
 *   <li>Finish is idempotent: a finish whose first reply was lost (the job is gone from Redis, the journal says Ready)
 *       is journaled Finish and answered 200.
 *   <li>A pull finish is answered before the state writer journals its Finish. The script that removes the job leaves a
 *       finish mark ({@code finished}) in the same step; the writer drops the marks of each batch it wrote. A restore
 *       or the stranded-job repair never adds a marked job ({@code add.lua}), so a node killed with Finish changes
 *       queued cannot make a later restore deliver them again; the repair, once every live node flushed its ends,
 *       journals Finish for marks older than {@code journal.repair-after} whose rows still read pending, then drops
 *       them. A bucket migration moves the marks with their ids. Only Redis losing its data with the marks loses this
 *       (then a restore may deliver such a job again, as documented).
 *   <li>A pull job whose reservation expires {@code tries} times, or whose ttl ran out, is journaled Dead (before it
 *       leaves Redis) instead of going round forever.
 *   <li>A buried job is never handed out again. A burial is three steps: park, journal Dead, forget. Park keeps the job
 *       in flight for {@code DeliveryOutcomes.BURIAL_WINDOW_MS} with a record that says it is spent: a pull job's
 *       reservation count reached its tries already (release.lua, sweep.lua); a broker job's record is rewritten by
 *       {@code park.lua} to count its tries used up (attempts at least tries), in one atomic step with its deadline.
 *       {@code sweep.lua} judges a spent job by either count (or its ttl) and hands it back only to be buried again,
 *       never as due; {@code retry.lua} (another hand-over of the same job failing) leaves a parked job where it is. So
 *       a crash or a failed step anywhere after the park (the Dead write failing, the forget failing after Dead was
 *       journaled) ends with the sweeper burying the job again once the window passed: Dead journaled again (left out:
 *       the first end stays), then forgotten. A job no longer in flight when its last send failed (swept back while it
 *       was sent) is not parked: the hand-over that has it now settles it. A restore never adds a parked job (Redis
 *       holds it) nor a Dead one (not pending); a respawn ({@code respawn.lua}) writes a fresh record and takes it out
 *       of flight, so a respawned job is delivered again.
 *   <li>A change of {@code mykit.delay.buckets} moves every job to its new bucket in the stage it had (waiting, ready,
 *       in flight with its deadline, reservation count) before any timer or request runs ({@code store.BucketLayout}).
 *       Each job is written to its new bucket before it leaves the old one; a crash leaves it in one or both,
 *       identical, and the next start finishes the migration it recorded. Tombstones are not moved: only a restore
 *       running at the same time needs them, and none runs during a migration. The epoch marks follow: every new bucket
 *       is marked when every old one was (a resize is no Redis loss), none when one was missing (the loss is still
 *       noticed).
 *   <li>A job reserved for a long-poll that can no longer take it (its timeout or the container ended it meanwhile)
 *       goes back first in its ready list with its reservation undone ({@code unreserve.lua}); a client that vanished
 *       unseen leaves an ordinary reservation the sweeper returns after its ttr.
 *   <li>The journal retention purge deletes only Finish and Delete rows past the cut-off, log rows before job rows,
 *       each re-checked in its DELETE: pending and dead jobs stay whatever their age ({@code journal.JournalPurger}).
 *   <li>Shutdown: timers stop first, the web server drains, broker senders finish or leave jobs in flight, the journal
 *       writer flushes last.
 * </ul>
 */
package io.mykit.delay.queue;
