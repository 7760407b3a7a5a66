-- Dead-letter listing and respawn page through one topic's jobs in one status by id.
CREATE INDEX mykit_delay_queue_job_TOPIC_STATUS ON mykit_delay_queue_job (topic, status, id);
