/**
 * Who pumps which bucket: standalone, master-slave (ZooKeeper leader owns every bucket) and cluster (live nodes share
 * the buckets), with per-bucket fencing in Redis.
 *
 * <h2>Classes</h2>
 *
 * <pre>
 * BucketOwnership      which buckets this node pumps now; StandaloneOwnership (all, unfenced) or ZooKeeperOwnership
 * ZooKeeperOwnership   the reconcile thread and the order of its steps; built from OwnershipSettings
 * ConnectionGrace      SUSPENDED / LOST / RECONNECTED handling and the suspend grace
 * LayoutGuard          /layout and /locks/layout: every node of a namespace runs one layout
 * Membership           /members: this node's entry, and who lives
 * OwnershipPolicy      the buckets this node should own: MasterSlavePolicy (leader latch) or ClusterPolicy (Rendezvous)
 * BucketLeases         /owners/bI znodes, their terms claimed in Redis (TermClaims), bucket timers started and stopped
 * OwnershipView        GET /cluster's ClusterView, from the local cache of ZooKeeper
 * WakeBus              wake-ups and the restore's flush round between nodes, over Redis pub/sub
 * </pre>
 *
 * <h2>Settings (docs/cluster.md has their defaults)</h2>
 *
 * <pre>
 * mykit.delay.mode                         standalone | master-slave | cluster
 * mykit.delay.registry.server-list         ZooKeeper connect string (the original's registry.serverList binds too)
 * mykit.delay.registry.namespace           root znode
 * mykit.delay.registry.session-timeout     short: a dead node's buckets move only once its session expires
 * mykit.delay.registry.connection-timeout  ZooKeeper connect timeout
 * mykit.delay.registry.node-id             this node's name; also the journal's host column in these modes
 * mykit.delay.registry.suspend-grace       unset: 4/15 of the negotiated session; 0 stops at once on SUSPENDED
 * </pre>
 *
 * <h2>ZooKeeper nodes (under /namespace)</h2>
 *
 * <pre>
 * /layout            PERSISTENT  "buckets=N prefix=P": a node with another layout refuses to start while members live
 * /locks/layout      lock        held while a starting node checks (and may migrate) the layout and registers
 * /members/node-id   EPHEMERAL   one per live gateway (data: its base URL, " serve-only" until its timers start or
 *                                when they are off: such a member gets no bucket but is asked to flush before restores)
 * /leader            LeaderLatch (master-slave only)
 * /owners/bI         EPHEMERAL   the owner of bucket I (data: node id); its czxid is the ownership term's token
 * </pre>
 *
 * <h2>Redis (bucket hash tag, so the check runs inside each bucket's scripts)</h2>
 *
 * <pre>
 * {prefix:bI}:owner  STRING  the newest token that claimed bucket I, 20-digit zero-padded czxid
 * </pre>
 *
 * A token only grows (czxid is ZooKeeper's global transaction id). {@code pump_due}, {@code sweep}, {@code to_ready}
 * and {@code retry} take the caller's token and answer the error {@code FENCED} when the stored one is greater (string
 * comparison of equal-width strings: Lua numbers lose precision past 2^53). Standalone passes an empty token and is not
 * checked. A node keeps its token after it releases a bucket: jobs it pumped in its term may still be handed over until
 * a newer term claims the bucket. Broker senders ask before each batch whether a newer term claimed its buckets
 * ({@code DelayStore.outranked}) and leave those jobs in flight. Owners write their tokens again once a second, so a
 * Redis that lost its data is fenced again within a tick.
 *
 * <h2>Ownership life cycle (one reconcile thread per node, never ZooKeeper's event thread)</h2>
 *
 * ZooKeeper callbacks (connection state, cache changes, leadership, a FENCED reply) only flip flags, stop pumping where
 * safety needs it at once, and schedule the reconcile; every ZooKeeper and Redis call of the ownership runs on its
 * thread.
 *
 * <ol>
 *   <li>Desired buckets ({@code OwnershipPolicy}): master-slave, all when this node holds the leader latch, none
 *       otherwise; cluster, rendezvous hashing of (bucket, member) over the live members that take buckets.
 *   <li>Release before acquire: a bucket no longer desired has its timer stopped (the current pass ends) before its
 *       owner znode is deleted.
 *   <li>Acquire: create /owners/bI (ephemeral); NodeExists means the previous owner has not let go yet: wait for its
 *       deletion (watch) or its session to expire. Then claim the token in Redis (claim.lua refuses a lower one), then
 *       start the bucket's timer. The creates are sent side by side: each is a quorum write.
 *   <li>SUSPENDED ({@code ConnectionGrace}): keep pumping for a grace, then stop every timer and the chores. The grace
 *       is at most 4/15 of the negotiated session: a client calls a silent server lost after 2/3 of the session, so the
 *       session cannot expire (and no other node can own our buckets) before a third of it has passed since SUSPENDED;
 *       0.8 of that leaves room for clock rates. A reconnect within the grace (a dead server of three: the client waits
 *       up to 1 s at random before it tries the next one; a short election) then costs no pause. A paused process that
 *       outlives its session is still stopped by the Redis fence. The leader latch uses Curator's session error policy,
 *       so it does not give up leadership on SUSPENDED; with a grace of 0 it does, and SUSPENDED stops everything at
 *       once. RECONNECTED: keep a bucket only if its owner znode's ephemeralOwner is still this session. LOST: drop
 *       everything and reconcile from scratch.
 *   <li>A FENCED reply stops that bucket at once and triggers a reconcile.
 *   <li>Chores that must run once per cluster (sweeper of owned buckets runs everywhere; stranded-job repairer,
 *       Redis-loss watch and its restore) run on the owner of bucket 0. A restore or repair first asks every member
 *       over the wake channel to journal the ends it applied in Redis, and waits for all answers (else it retries).
 *   <li>Stop: timers stop first, then the session closes, which deletes the latch, member and owner znodes in one
 *       write, so the next owner finds the buckets free the moment it takes over.
 * </ol>
 *
 * <h2>One clock for in-flight deadlines</h2>
 *
 * In-flight scores (hand-over and reservation deadlines) come from Redis {@code TIME} inside the scripts, and the
 * sweeper compares them with Redis {@code TIME}: a node with a skewed clock can neither reclaim another node's
 * reservation early nor keep one forever.
 *
 * <h2>Observability: GET /cluster (admin)</h2>
 *
 * <pre>
 * {"mode":"cluster","node":"n1","zookeeper":"CONNECTED","leader":null,"members":["n1","n2"],"fencedCalls":0,
 *  "restores":0,"buckets":[{"bucket":0,"owner":"n1","token":"00000000004294967312","pumping":true}, ...]}
 * </pre>
 *
 * {@code owner}/{@code token}: this node's view of ZooKeeper; {@code pumping}: this node's timer of that bucket runs;
 * {@code fencedCalls}: script calls of this node refused as FENCED; {@code restores}: automatic restores (Redis loss)
 * this node ran. In master-slave and cluster modes the journal's log rows carry the node id as host.
 */
package io.mykit.delay.queue.cluster;
