-- (status, due_time) served no query, and every status change moved its entry to a random place; (status, id)
-- serves the stranded-job scan (status = 0, keyset by id) and stays sequential when a restore updates pages by id.
DROP INDEX mykit_delay_queue_job_STATUS_DUE ON mykit_delay_queue_job;
CREATE INDEX mykit_delay_queue_job_STATUS_ID ON mykit_delay_queue_job (status, id);
