package io.mykit.delay.core;

import com.zaxxer.hikari.HikariDataSource;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * mysql-connector-j options the push path needs, added to a {@code jdbc:mysql:} URL that does not name them already (a
 * user's own value, in the URL or in {@code spring.datasource.hikari.data-source-properties}, always wins). Without the
 * statement cache the driver parses each group commit's multi-row INSERT (up to 14,000 placeholders) again.
 */
public final class JdbcUrlDefaults implements BeanPostProcessor {
    /**
     * Option -> value, each checked on MariaDB 10.11 with mysql-connector-j 9.7: the statement cache (with room for the
     * long multi-row INSERT texts), batches as multi-row statements, session state kept on the client (no round trip to
     * read autocommit, isolation or read-only), the server's settings read once per pool, and several statements per
     * call, so a journal transaction is one round trip (SingleRoundTrip).
     */
    static final Map<String, String> OPTIONS = options(
            "cachePrepStmts", "true",
            "prepStmtCacheSize", "512",
            "prepStmtCacheSqlLimit", "1000000",
            "rewriteBatchedStatements", "true",
            "useLocalSessionState", "true",
            "cacheServerConfiguration", "true",
            "maintainTimeStats", "false",
            "allowMultiQueries", "true");

    private static final String PREFIX = "jdbc:mysql:";

    /** {@code url} with each of {@link #OPTIONS} not already named in it nor in {@code given}; other URLs unchanged. */
    public static String apply(String url, Properties given) {
        if (url == null || !url.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            return url;
        }
        int query = url.indexOf('?');
        Map<String, Boolean> named = new LinkedHashMap<>();
        if (query >= 0) {
            for (String pair : url.substring(query + 1).split("&")) {
                int eq = pair.indexOf('=');
                named.put((eq < 0 ? pair : pair.substring(0, eq)).toLowerCase(Locale.ROOT), true);
            }
        }
        given.stringPropertyNames().forEach(name -> named.put(name.toLowerCase(Locale.ROOT), true));
        StringBuilder out = new StringBuilder(url);
        char separator = query < 0 ? '?' : (url.endsWith("?") || url.endsWith("&") ? 0 : '&');
        for (Map.Entry<String, String> option : OPTIONS.entrySet()) {
            if (named.containsKey(option.getKey().toLowerCase(Locale.ROOT))) {
                continue;
            }
            if (separator != 0) {
                out.append(separator);
            }
            out.append(option.getKey()).append('=').append(option.getValue());
            separator = '&';
        }
        return out.toString();
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof HikariDataSource pool && !pool.isRunning()) {
            pool.setJdbcUrl(apply(pool.getJdbcUrl(), pool.getDataSourceProperties()));
        }
        return bean;
    }

    private static Map<String, String> options(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }
}
