package io.mykit.delay.queue.journal;

import java.sql.CallableStatement;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import org.apache.ibatis.type.BaseTypeHandler;
import org.apache.ibatis.type.JdbcType;
import org.apache.ibatis.type.MappedTypes;

/**
 * Binds journal times as 'yyyy-MM-dd HH:mm:ss.SSS' text. MariaDB 10.x announces itself as "5.5.5-10.x" to
 * mysql-connector-j, which then drops fractional seconds from temporal parameters; text keeps the milliseconds of the
 * DATETIME(3) columns on MariaDB, MySQL and H2 alike.
 */
@MappedTypes(LocalDateTime.class)
public class MillisDateTimeTypeHandler extends BaseTypeHandler<LocalDateTime> {
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    @Override
    public void setNonNullParameter(PreparedStatement ps, int i, LocalDateTime value, JdbcType jdbcType)
            throws SQLException {
        ps.setString(i, FORMAT.format(value));
    }

    @Override
    public LocalDateTime getNullableResult(ResultSet rs, String column) throws SQLException {
        return rs.getObject(column, LocalDateTime.class);
    }

    @Override
    public LocalDateTime getNullableResult(ResultSet rs, int index) throws SQLException {
        return rs.getObject(index, LocalDateTime.class);
    }

    @Override
    public LocalDateTime getNullableResult(CallableStatement cs, int index) throws SQLException {
        return cs.getObject(index, LocalDateTime.class);
    }
}
