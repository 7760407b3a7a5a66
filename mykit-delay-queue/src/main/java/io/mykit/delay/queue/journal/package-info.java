/**
 * The journal: MySQL/MariaDB (H2 in MySQL mode when embedded) tables every accepted job and every state change are
 * written to, so that Redis can be rebuilt from them.
 *
 * <h2>Tables</h2>
 *
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
 * <h2>Writes</h2>
 *
 * <ul>
 *   <li>Push: the push writer's group commit inserts the job rows (Delay), their log rows (WaitPut) and one storing row
 *       listing the group; the push is answered after that commit and the Redis add. The state writer deletes the
 *       storing row after the add ({@link io.mykit.delay.queue.journal.StateChange#groupStored}).
 *   <li>While an id is listed in a storing row the job reads as WaitPut ({@code find}, {@code findPendingAfter},
 *       {@code findByBizKey}; {@code markDeleted} with {@code unlessWaitPut} leaves it): its push may still add it. The
 *       storing rows are read after the job rows, so a job read as Delay was in Redis before the read.
 *   <li>A crash or a Redis failure between commit and add leaves the storing row: the stranded-job repairer adds the
 *       jobs of rows older than {@code repair-after} that have not ended, then deletes the rows. Jobs in WaitPut for
 *       that long (a respawned dead letter, rows an older version wrote) are repaired too.
 *   <li>State changes (stored, Ready, Finish, Delay, Restore, ...):
 *       {@link io.mykit.delay.queue.journal.StateChangeWriter} gathers them for {@code state-linger} and applies a
 *       batch in one transaction: one status UPDATE per target status (the last change per job wins; an ended row is
 *       never reopened) and one multi-row log INSERT.
 *   <li>Ended stays ended: a job's first end (Finish, Delete, Dead) is its last. Every path that writes a status keeps
 *       it: within a batch {@link io.mykit.delay.queue.journal.StateChange#finalPerJob} lets no later change, ended or
 *       not, replace an end; across batches every status UPDATE carries {@code status NOT IN (3, 4, 7)} (a direct
 *       {@code apply} such as a burial's synchronous Dead, the state writer's batches, the ledger fold, which uses the
 *       same statements); reads overlay the ledger on a row with the same rule; {@code markDeleted} and
 *       {@code reschedule} carry the guard too. Only {@code transition}, which moves rows from one named status to
 *       another, moves an ended row: the operator's dead-letter respawn (Dead to WaitPut) and drop (Dead to Delete). An
 *       end left out still gets its log row (the log is what happened, in write order) and is counted in
 *       {@code mykit.delay.journal.ended.kept} ({@link io.mykit.delay.queue.journal.KeptEnds}: an UPDATE that changed
 *       fewer rows than it named left the others as they were).
 *   <li>With {@code journal.ledger} on, a flush's changes (all but the guarded "stored" ones, which must see the row)
 *       are one packed {@link io.mykit.delay.queue.journal.LedgerRow} instead;
 *       {@link io.mykit.delay.queue.journal.LedgerCompactor} folds rows into the job and log rows later, in ledger
 *       order, deleting them in the same transaction (two folds of the same rows: the second deletes fewer than it read
 *       and rolls back). Every read overlays a job's unfolded entries on its row with the fold's rule
 *       ({@link io.mykit.delay.queue.journal.LedgerRow#overlay}); cancel and reschedule refuse a job whose end is in
 *       the ledger.
 *   <li>Restore: reads pending rows by primary key in pages (the next page is read while the current one goes to Redis)
 *       and logs one Restore row per job re-added, without touching the job rows.
 * </ul>
 *
 * <h2>The delivery ledger (off by default)</h2>
 *
 * Appends one row per state-change flush (its ids packed in one column) and folds those rows into the job and log
 * tables later, off the hot path: a burst's deliveries cost the database one INSERT per flush instead of a status
 * UPDATE and a log row per job. The fold's cost stays, but lands when the burst is over. Direct readers of the tables
 * see statuses only after the fold, which is why it is not the default.
 *
 * <h2>Classes</h2>
 *
 * {@link io.mykit.delay.queue.journal.MybatisJournal} is the {@link io.mykit.delay.queue.journal.Journal} the engine
 * uses; it decides which tables a call touches and in which transaction. Each table has its own class:
 * {@link io.mykit.delay.queue.journal.JobTable} (job and log rows), {@link io.mykit.delay.queue.journal.DeliveryLedger}
 * (append, fold, unfolded entries), {@link io.mykit.delay.queue.journal.StoringRows}; reads that overlay the ledger and
 * the storing rows on the job rows are {@link io.mykit.delay.queue.journal.JournalReader}'s, and
 * {@link io.mykit.delay.queue.journal.JournalTransactions} sends a transaction as one round trip or through Spring's
 * transaction manager.
 */
package io.mykit.delay.queue.journal;
