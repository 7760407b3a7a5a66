-- The retention purge finds ended jobs by status and last change: without this index every pass scanned all ended
-- rows. An update appends the job's entry at the far end of its new status' range (update_time only grows).
CREATE INDEX mykit_delay_queue_job_STATUS_UPDATED ON mykit_delay_queue_job (status, update_time);
