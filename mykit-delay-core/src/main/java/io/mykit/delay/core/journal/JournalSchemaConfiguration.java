package io.mykit.delay.core.journal;

import java.sql.SQLException;
import org.flywaydb.core.Flyway;
import org.springframework.boot.autoconfigure.flyway.FlywayMigrationStrategy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Migrates the journal with Flyway, upgrading the original mykit-delay's tables in place first when it finds them. */
@Configuration(proxyBeanMethods = false)
public class JournalSchemaConfiguration {

    @Bean
    public FlywayMigrationStrategy originalSchemaFirst() {
        return flyway -> {
            OriginalSchemaUpgrade upgrade = new OriginalSchemaUpgrade(
                    flyway.getConfiguration().getDataSource(),
                    flyway.getConfiguration().getTable());
            try {
                if (upgrade.needed()) {
                    upgrade.run();
                    Flyway.configure()
                            .configuration(flyway.getConfiguration())
                            .baselineVersion("1")
                            .baselineDescription("original mykit-delay schema, upgraded in place")
                            .load()
                            .baseline();
                }
            } catch (SQLException e) {
                throw new IllegalStateException(
                        "upgrading the original mykit-delay tables failed: " + e.getMessage(), e);
            }
            flyway.migrate();
        };
    }
}
