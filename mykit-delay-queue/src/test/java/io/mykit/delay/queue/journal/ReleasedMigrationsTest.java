package io.mykit.delay.queue.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A released migration never changes, not even in a comment: Flyway checks every applied file's checksum at start, so
 * one changed byte stops every existing deployment. A new schema change is a new file, added here with its digest.
 */
class ReleasedMigrationsTest {
    private static final Map<String, String> RELEASED = Map.ofEntries(
            Map.entry("V1__create_job_tables.sql", "a781605d89896855cfc5dc98cfca9854a95eaa31b9531fec7f5e17dc307b81d8"),
            Map.entry(
                    "V2__index_jobs_by_topic_and_status.sql",
                    "dacbff6d4b3f61ce467cc809eef6ae1f383c7d9ea887bbb4ab0fe07922e09525"),
            Map.entry("V3__index_status_by_id.sql", "b36b105969e2933a40ed3ecd8c4a14ff573566ed26dd19654db85013bb47f97f"),
            Map.entry(
                    "V4__case_sensitive_job_keys.sql",
                    "86237d927f73354626a7ea38645f1cf45d3e98171cc3b2922a4783184e3be316"),
            Map.entry(
                    "V5__index_jobs_by_biz_key.sql",
                    "e59b998897d71db0eb78f58cc1b0bf6717dcd67141c510d265d158e4b93e829c"),
            Map.entry(
                    "V6__index_jobs_by_status_and_update_time.sql",
                    "d363fcbfb16ecc5b6446fbe49b2bf821d5adf499c39aa24fe35c55942cc09163"),
            Map.entry(
                    "V7__drop_status_id_index.sql", "c32b32f3081a95693e8c419a3a61112bbd30d2f393f7db1b60d7ee827bbfd2e7"),
            Map.entry(
                    "V8__storing_push_groups.sql", "a88cb64b54702d849857ded850da1588b0f4d4ab8526641d64a698123615cf00"),
            Map.entry("V9__delivery_ledger.sql", "d587f76bb3d6467c2266d82a1d162430800806ce334e33072c45750556d04247"));

    @Test
    void released_migrations_are_byte_for_byte_as_released() throws Exception {
        for (Map.Entry<String, String> migration : RELEASED.entrySet()) {
            assertThat(sha256("/db/migration/" + migration.getKey()))
                    .as(migration.getKey())
                    .isEqualTo(migration.getValue());
        }
    }

    private static String sha256(String resource) throws IOException, NoSuchAlgorithmException {
        try (InputStream in = ReleasedMigrationsTest.class.getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(in.readAllBytes()));
        }
    }
}
