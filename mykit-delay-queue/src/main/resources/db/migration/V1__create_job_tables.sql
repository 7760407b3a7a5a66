-- The journal: source of truth for every accepted job. Table and column names follow the original
-- mykit-delay; priority, tries, attempts and due_time are additions.
CREATE TABLE mykit_delay_queue_job (
    id          VARCHAR(128) NOT NULL,
    bizkey      VARCHAR(128) DEFAULT NULL,
    topic       VARCHAR(128) DEFAULT NULL,
    subtopic    VARCHAR(250) DEFAULT NULL,
    delay       BIGINT       DEFAULT NULL,
    priority    INT          DEFAULT 0,
    ttl         BIGINT       DEFAULT 0,
    tries       INT          DEFAULT 0,
    attempts    INT          DEFAULT 0,
    create_time BIGINT       DEFAULT NULL,
    due_time    BIGINT       DEFAULT NULL,
    body        MEDIUMTEXT,
    status      INT          DEFAULT NULL,
    update_time DATETIME(3)  DEFAULT NULL,
    PRIMARY KEY (id)
);
CREATE INDEX mykit_delay_queue_job_STATUS_DUE ON mykit_delay_queue_job (status, due_time);

CREATE TABLE mykit_delay_queue_job_log (
    log_id      BIGINT       NOT NULL AUTO_INCREMENT,
    id          VARCHAR(128) NOT NULL,
    status      INT          DEFAULT NULL,
    thread      VARCHAR(60)  DEFAULT NULL,
    update_time DATETIME(3)  DEFAULT NULL,
    host        VARCHAR(128) DEFAULT NULL,
    PRIMARY KEY (log_id)
);
CREATE INDEX mykit_delay_queue_job_LOG_ID_STATUS ON mykit_delay_queue_job_log (id, status);
