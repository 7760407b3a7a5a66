-- Push groups whose Redis add is not confirmed yet (issue #14): a push commits its job rows in Delay together with one
-- row here naming the group's ids (',id1,id2,'), and the row is deleted once Redis holds them. Before, every job row
-- was inserted WaitPut and updated to Delay with a second log row after the add: 28% of MariaDB's CPU per push.
-- While a job's id is listed here it counts as WaitPut (left to its push, or to the stranded-job repairer).
-- No secondary index: the table holds only the groups of the last moments (more while Redis is down).
CREATE TABLE mykit_delay_queue_storing (
    group_id    VARCHAR(128) NOT NULL COLLATE utf8mb4_bin,
    ids         MEDIUMTEXT   NOT NULL COLLATE utf8mb4_bin,
    host        VARCHAR(128) DEFAULT NULL,
    create_time DATETIME(3)  NOT NULL,
    PRIMARY KEY (group_id)
);
