-- Every status change moved an entry in (status, id) as well as in (topic, status, id) and (status, update_time): a
-- third of a status UPDATE's cost (issue #14). Its one reader, the stranded-job scan, now pages by
-- (status, update_time) and the primary key every InnoDB secondary index carries.
DROP INDEX mykit_delay_queue_job_STATUS_ID ON mykit_delay_queue_job;
