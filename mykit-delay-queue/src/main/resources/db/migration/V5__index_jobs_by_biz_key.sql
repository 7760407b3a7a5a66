-- Lookup (GET /jobs?bizKey=&topic=) and cancel (DELETE /jobs?bizKey=&topic=) by business key page through one
-- bizKey's jobs of one topic by id; without a topic, the bizKey prefix still narrows the scan to that key's rows.
CREATE INDEX mykit_delay_queue_job_BIZKEY_TOPIC_ID ON mykit_delay_queue_job (bizkey, topic, id);
