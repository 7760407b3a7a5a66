package io.mykit.delay.queue.journal;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import java.time.LocalDateTime;
import java.util.Collection;
import java.util.List;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

@Mapper
public interface JobMapper extends BaseMapper<JobRow> {

    /** Locking read: waits for a push still inserting one of the ids, then sees its committed row (READ COMMITTED). */
    @Select("""
            <script>
            SELECT id FROM mykit_delay_queue_job
            WHERE id IN <foreach collection="ids" item="id" open="(" separator="," close=")">#{id}</foreach>
            FOR UPDATE
            </script>""")
    List<String> findExistingIds(@Param("ids") Collection<String> ids);

    /**
     * Jobs in {@code status} last changed before {@code before}, oldest change first, keyset-paged after
     * ({@code afterTime}, {@code afterId}) in the order of index (status, update_time) and the primary key it carries.
     */
    @Select("""
            SELECT * FROM mykit_delay_queue_job
            WHERE status = #{status} AND update_time < #{before}
              AND (update_time > #{afterTime} OR (update_time = #{afterTime} AND id > #{afterId}))
            ORDER BY update_time, id LIMIT #{limit}""")
    List<JobRow> findInStatusBefore(
            @Param("status") int status,
            @Param("before") LocalDateTime before,
            @Param("afterTime") LocalDateTime afterTime,
            @Param("afterId") String afterId,
            @Param("limit") int limit);

    /** One topic's jobs in one status, keyset-paged by id; {@code ids} narrows it to those jobs when given. */
    @Select("""
            <script>
            SELECT * FROM mykit_delay_queue_job
            WHERE topic = #{topic} AND status = #{status} AND id &gt; #{afterId}
            <if test="ids != null"> AND id IN
              <foreach collection="ids" item="id" open="(" separator="," close=")">#{id}</foreach>
            </if>
            ORDER BY id LIMIT #{limit}
            </script>""")
    List<JobRow> findByTopicAndStatus(
            @Param("topic") String topic,
            @Param("status") int status,
            @Param("afterId") String afterId,
            @Param("ids") Collection<String> ids,
            @Param("limit") int limit);

    /** Jobs not yet ended (not Finish, Delete or Dead), keyset-paged by primary key. */
    @Select("""
            SELECT * FROM mykit_delay_queue_job
            WHERE id > #{afterId} AND status NOT IN (3, 4, 7)
            ORDER BY id LIMIT #{limit}""")
    List<JobRow> findPendingAfter(@Param("afterId") String afterId, @Param("limit") int limit);

    /** One bizKey's jobs (in one topic, not yet ended: when asked), keyset-paged by id: index (bizkey, topic, id). */
    @Select("""
            <script>
            SELECT * FROM mykit_delay_queue_job
            WHERE bizkey = #{bizKey} AND id &gt; #{afterId}
            <if test="topic != null"> AND topic = #{topic}</if>
            <if test="pendingOnly"> AND status NOT IN (3, 4, 7)</if>
            ORDER BY id LIMIT #{limit}
            </script>""")
    List<JobRow> findByBizKey(
            @Param("bizKey") String bizKey,
            @Param("topic") String topic,
            @Param("pendingOnly") boolean pendingOnly,
            @Param("afterId") String afterId,
            @Param("limit") int limit);

    /**
     * One bizKey's jobs in the topics {@code exact} names or a {@code like} pattern matches (see TopicConditions),
     * keyset-paged by id: each condition is a range of index (bizkey, topic, id), so other topics' jobs of the bizKey
     * are not read.
     */
    @Select("""
            <script>
            SELECT * FROM mykit_delay_queue_job
            WHERE bizkey = #{bizKey} AND id &gt; #{afterId} AND (
            <if test="exact.size() > 0">
              topic IN <foreach collection="exact" item="t" open="(" separator="," close=")">#{t}</foreach>
            </if>
            <if test="exact.size() > 0 and like.size() > 0"> OR </if>
            <foreach collection="like" item="p" separator=" OR ">topic LIKE #{p}</foreach>
            )
            ORDER BY id LIMIT #{limit}
            </script>""")
    List<JobRow> findByBizKeyInTopics(
            @Param("bizKey") String bizKey,
            @Param("exact") List<String> exact,
            @Param("like") List<String> like,
            @Param("afterId") String afterId,
            @Param("limit") int limit);
}
