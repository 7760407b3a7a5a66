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
 * <h2>The shape that would (not built)</h2>
 * Append one row per delivered batch (its ids packed in one column) in the delivering thread's flush, and fold those
 * rows into the job and log tables later, off the hot path; restore and every status read subtract the unfolded ends
 * first. The cost per delivered job falls to well under 1 us at delivery time; the folding cost stays, but runs when
 * the burst is over. What it must still answer before it replaces the row UPDATE: point reads (lookup, cancel,
 * finish of an absent job) and cluster-wide restores must see unfolded ends of every node, and the original's users
 * who read the job table directly see statuses only after the fold.
 */
package io.mykit.delay.queue.journal;
