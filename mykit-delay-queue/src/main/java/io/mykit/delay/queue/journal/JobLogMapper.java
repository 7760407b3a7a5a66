package io.mykit.delay.queue.journal;

import java.util.List;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

@Mapper
public interface JobLogMapper {

    @Select("SELECT id, status, thread, update_time AS updateTime, host FROM "
            + "mykit_delay_queue_job_log WHERE id = #{id} ORDER BY log_id")
    List<JobLogRow> findById(@Param("id") String id);
}
