package io.mykit.delay.core.journal;

import io.micrometer.core.instrument.MeterRegistry;
import io.mykit.delay.config.DelayProperties;
import io.mykit.delay.config.JournalProperties;
import io.mykit.delay.core.NodeIdentity;
import io.mykit.delay.queue.cluster.BucketOwnership;
import io.mykit.delay.queue.journal.JobLogMapper;
import io.mykit.delay.queue.journal.JobMapper;
import io.mykit.delay.queue.journal.Journal;
import io.mykit.delay.queue.journal.JournalPurger;
import io.mykit.delay.queue.journal.JournalSettings;
import io.mykit.delay.queue.journal.LedgerCompactor;
import io.mykit.delay.queue.journal.MybatisJournal;
import io.mykit.delay.queue.journal.StateChange;
import io.mykit.delay.queue.journal.StateChangeWriter;
import io.mykit.delay.queue.store.RedisDelayStore;
import io.mykit.delay.queue.timer.TimerGroup;
import java.time.Clock;
import org.apache.ibatis.annotations.Mapper;
import org.mybatis.spring.annotation.MapperScan;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The journal and the loops around it, from {@code mykit.delay.journal.*}: the MyBatis-Plus starter's
 * auto-configuration gives the session factory, {@link MapperScan} the mappers, Spring Boot the data source,
 * JdbcTemplate and transaction manager ({@link JournalSchemaConfiguration} migrates the tables first).
 */
@Configuration(proxyBeanMethods = false)
@MapperScan(basePackageClasses = JobMapper.class, annotationClass = Mapper.class)
public class JournalConfiguration {

    @Bean
    public Journal delayJournal(
            JobMapper jobs,
            JobLogMapper logs,
            JdbcTemplate jdbc,
            PlatformTransactionManager txManager,
            DelayProperties properties,
            NodeIdentity node) {
        JournalProperties journal = properties.getJournal();
        String host = properties.getMode() == DelayProperties.Mode.STANDALONE ? NodeIdentity.hostName() : node.id();
        return new MybatisJournal(
                jobs,
                logs,
                jdbc,
                new TransactionTemplate(txManager),
                new JournalSettings(host, journal.isOneTrip(), journal.isLedger(), journal.getPushTimeout()));
    }

    @Bean
    public StateChangeWriter stateChangeWriter(Journal journal, RedisDelayStore store, DelayProperties properties) {
        StateChangeWriter states = new StateChangeWriter(
                journal,
                properties.getJournal().getBatchSize(),
                properties.getJournal().getStateLinger().toMillis());
        // a pull finish is answered before its Finish is written; its mark keeps restores off it until then
        states.onWritten(written -> store.forgetFinishMarks(StateChange.finishedIds(written)));
        return states;
    }

    /** The retention purge, run with the timers' helpers on the node that runs the chores (when enabled). */
    @Bean
    public JournalPurger journalPurger(
            Journal journal,
            TimerGroup timers,
            Clock clock,
            DelayProperties properties,
            ObjectProvider<BucketOwnership> ownership,
            ObjectProvider<MeterRegistry> meters) {
        JournalProperties settings = properties.getJournal();
        JournalPurger purger = new JournalPurger(
                journal,
                clock,
                settings.getRetention().toMillis(),
                settings.getPurgeBatchSize(),
                settings.getPurgePause().toMillis(),
                settings.getPurgeInterval().toMillis(),
                () -> ownership.getObject().runsChores(),
                new PurgedRowsCounter(meters));
        if (settings.isRetentionEnabled()) {
            timers.addHelper(purger);
        }
        return purger;
    }

    /**
     * The delivery ledger's compaction, on every node and whether or not the ledger is on: rows a node wrote before a
     * restart with the ledger off are folded all the same.
     */
    @Bean
    public LedgerCompactor ledgerCompactor(
            Journal journal, StateChangeWriter states, TimerGroup timers, Clock clock, DelayProperties properties) {
        JournalProperties settings = properties.getJournal();
        LedgerCompactor compactor = new LedgerCompactor(
                journal,
                clock,
                settings.getLedgerFoldAfter().toMillis(),
                settings.getLedgerFoldSize(),
                states::submitted);
        timers.addHelper(compactor);
        return compactor;
    }
}
