-- The delivery ledger (issue #14): with mykit.delay.journal.ledger on, each state-change flush (Ready, Finish, retries,
-- dead letters) is one row here, its changes packed as ';id,status,offsetMs,threadIndex;...', instead of a status
-- UPDATE and a log row per job. A background fold applies the rows to mykit_delay_queue_job and _job_log in order and
-- deletes them; until then every read lays a job's unfolded entries over its row. No secondary index: reads find a
-- job's entries with LOCATE(';id,', changes), and the table holds only what the fold has not reached.
CREATE TABLE mykit_delay_queue_ledger (
    seq       BIGINT       NOT NULL AUTO_INCREMENT,
    changes   MEDIUMTEXT   NOT NULL COLLATE utf8mb4_bin,
    threads   TEXT         NOT NULL,
    host      VARCHAR(128) DEFAULT NULL,
    base_time BIGINT       NOT NULL,
    PRIMARY KEY (seq)
);
