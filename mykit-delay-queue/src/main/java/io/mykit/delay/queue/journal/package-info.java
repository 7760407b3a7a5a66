/**
 * The journal: MySQL/MariaDB (H2 in MySQL mode when embedded) tables every accepted job and every state change are
 * written to, so that Redis can be rebuilt from them.
 *
 * <h2>Tables</h2>
 * <pre>
 * mykit_delay_queue_job      one row per job: the job, its last status and update_time (PK id; indexes
 *                            (topic, status, id), (status, id), (bizkey, topic, id), (status, update_time))
 * mykit_delay_queue_job_log  one row per state change (PK log_id; index (id, status)); write order, not event order
 * mykit_delay_queue_storing  one row per push group whose Redis add is not confirmed: (group_id PK, ',id1,id2,',
 *                            host, create_time); no other index, it holds only the last moments' groups
 * mykit_delay_queue_ledger   with journal.ledger on: one row per state-change flush not yet folded (seq PK,
 *                            changes ';id,status,offsetMs,threadIndex;...', threads, host, base_time); no other index
 * </pre>
 *
 * <h2>Write roads</h2>
 * <ul>
 *   <li>Push: the push writer's group commit inserts the job rows (Delay), their log rows (WaitPut) and one storing
 *       row listing the group; the push is answered after that commit and the Redis add. The state writer deletes the
 *       storing row after the add ({@link io.mykit.delay.queue.journal.StateChange#groupStored}).</li>
 *   <li>While an id is listed in a storing row the job reads as WaitPut ({@code find}, {@code findPendingAfter},
 *       {@code findByBizKey}; {@code markDeleted} with {@code unlessWaitPut} leaves it): its push may still add it.
 *       The storing rows are read after the job rows, so a job read as Delay was in Redis before the read.</li>
 *   <li>A crash or a Redis failure between commit and add leaves the storing row: the stranded-job repairer adds the
 *       jobs of rows older than {@code repair-after} that have not ended, then deletes the rows. Rows still in WaitPut
 *       (a respawned dead letter, an older version's rows) are repaired as before.</li>
 *   <li>State changes (stored, Ready, Finish, Delay, Restore, ...): {@link io.mykit.delay.queue.journal.StateChangeWriter}
 *       gathers them for {@code state-linger} and applies a batch in one transaction: one status UPDATE per target
 *       status (the last change per job wins; an ended row is never reopened) and one multi-row log INSERT.</li>
 *   <li>Ended stays ended: a job's first end (Finish, Delete, Dead) is its last. Every road that writes a status
 *       keeps it: within a batch {@link io.mykit.delay.queue.journal.StateChange#finalPerJob} lets no later change,
 *       ended or not, replace an end; across batches every status UPDATE carries {@code status NOT IN (3, 4, 7)} (a
 *       direct {@code apply} such as a burial's synchronous Dead, the state writer's batches, the ledger fold, which
 *       uses the same statements); reads lay the ledger over a row with the same rule; {@code markDeleted} and
 *       {@code reschedule} carry the guard too. Only {@code transition}, which moves rows from one named status to
 *       another, moves an ended row: the operator's dead-letter respawn (Dead to WaitPut) and drop (Dead to Delete).
 *       An end left out still gets its log row (the log is what happened, in write order) and is counted in
 *       {@code mykit.delay.journal.ended.kept} ({@link io.mykit.delay.queue.journal.KeptEnds}: an UPDATE that
 *       changed fewer rows than it named left the others as they were).</li>
 *   <li>With {@code journal.ledger} on, a flush's changes (all but the guarded "stored" ones, which must see the row)
 *       are one packed {@link io.mykit.delay.queue.journal.LedgerRow} instead; {@link io.mykit.delay.queue.journal.LedgerFolder}
 *       folds rows into the job and log rows later, in ledger order, deleting them in the same transaction (two folds
 *       of the same rows: the second deletes fewer than it read and rolls back). Every read lays a job's unfolded
 *       entries over its row with the fold's rule ({@link io.mykit.delay.queue.journal.LedgerRow#laidOver}); cancel
 *       and reschedule refuse a job whose end is in the ledger.</li>
 *   <li>Restore: reads pending rows by primary key in pages (the next page is read while the current one goes to
 *       Redis) and logs one Restore row per job re-added, without touching the job rows.</li>
 * </ul>
 *
 * <h2>What a delivery costs the journal (measured, issue #14)</h2>
 * MariaDB 10.11 on this 2-core box, 200k job rows with the indexes above, batches of 200 jobs per statement and one
 * commit per batch (innodb_flush_log_at_trx_commit=1), load average about 2:
 * <pre>
 * status UPDATE of 200 job rows                      42 us per job
 * log INSERT of 200 rows                             16 us per row
 * INSERT IGNORE into a narrow (id PK, status, time)  12 us per row
 * </pre>
 * A pull delivery writes one UPDATE (Ready and Finish coalesce when they share a flush) and two log rows: about 74 us
 * of MariaDB time per job, so one MariaDB core journals at most ~13,500 deliveries/s. The 50,000/s cannot be
 * reached with per-job rows on this box, whatever the batching.
 *
 * <h2>The delivery ledger (built, off by default)</h2>
 * Appends one row per state-change flush (its ids packed in one column) and folds those rows into the job and log
 * tables later, off the hot path. Measured (bench scenario 10, 100k due at once, 4 pullers taking 100 per GET, this
 * 2-core box): MariaDB 6 us per delivered job during the drain instead of 36, the drain 22.6k instead of 12.0k msg/s
 * (with the batched Redis scripts in both). The fold's cost stays (it ran about 4k changes/s at a third of the
 * database's time during the drain) but lands when the burst is over. Direct readers of the tables see statuses only
 * after the fold, which is why it is not the default yet.
 */
package io.mykit.delay.queue.journal;
