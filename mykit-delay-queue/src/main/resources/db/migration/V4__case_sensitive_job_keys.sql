-- Ids, topics, subtopics and biz keys are case-sensitive everywhere else (Redis, brokers): in MySQL/MariaDB's default
-- case-insensitive collation, a push of 'order-1' after 'Order-1' was dropped by INSERT IGNORE yet answered as stored.
-- COLLATE after the column attributes is the one spelling both MySQL/MariaDB and H2's MySQL mode (the embedded
-- journal, case-sensitive already; it ignores the collation) accept. A collation alone also sets its character set.
-- Keys, indexes and column order stay as they are. Cost on MariaDB with utf8mb4 columns: the id change rebuilds the
-- table (300k rows: 2.5 s), the topic change its index (1 s), the others only the table's definition.
ALTER TABLE mykit_delay_queue_job MODIFY COLUMN id VARCHAR(128) NOT NULL COLLATE utf8mb4_bin;
ALTER TABLE mykit_delay_queue_job MODIFY COLUMN topic VARCHAR(128) DEFAULT NULL COLLATE utf8mb4_bin;
ALTER TABLE mykit_delay_queue_job MODIFY COLUMN subtopic VARCHAR(250) DEFAULT NULL COLLATE utf8mb4_bin;
ALTER TABLE mykit_delay_queue_job MODIFY COLUMN bizkey VARCHAR(128) DEFAULT NULL COLLATE utf8mb4_bin;
ALTER TABLE mykit_delay_queue_job_log MODIFY COLUMN id VARCHAR(128) NOT NULL COLLATE utf8mb4_bin;
