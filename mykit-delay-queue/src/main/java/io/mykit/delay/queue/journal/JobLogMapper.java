package io.mykit.delay.queue.journal;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

import java.util.List;

@Mapper
public interface JobLogMapper {

    @Insert("""
            <script>
            INSERT INTO mykit_delay_queue_job_log (id, status, thread, update_time, host) VALUES
            <foreach collection="rows" item="r" separator=",">
              (#{r.id}, #{r.status}, #{r.thread}, #{r.updateTime}, #{r.host})
            </foreach>
            </script>""")
    int insertAll(@Param("rows") List<JobLogRow> rows);

    @Select("SELECT id, status, thread, update_time AS updateTime, host FROM mykit_delay_queue_job_log WHERE id = #{id} ORDER BY log_id")
    List<JobLogRow> findById(@Param("id") String id);
}
