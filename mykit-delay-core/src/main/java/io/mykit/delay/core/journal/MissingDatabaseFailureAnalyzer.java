package io.mykit.delay.core.journal;

import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * A journal database that does not exist on the MySQL/MariaDB server is reported as such, with the two ways out,
 * instead of the bean-creation chain (two hundred lines) whose last cause says {@code Unknown database}.
 */
public class MissingDatabaseFailureAnalyzer extends AbstractFailureAnalyzer<SQLException> {
    /** MySQL's and MariaDB's ER_BAD_DB_ERROR: the connection names a database the server does not have. */
    static final int UNKNOWN_DATABASE = 1049;

    private static final Pattern NAME = Pattern.compile("Unknown database '(.*)'");

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, SQLException cause) {
        SQLException unknown = unknownDatabase(cause);
        if (unknown == null) {
            return null;
        }
        Matcher name = NAME.matcher(String.valueOf(unknown.getMessage()));
        String database = name.find() ? name.group(1) : "named in spring.datasource.url";
        return new FailureAnalysis(
                "The journal database '" + database + "' does not exist on the MySQL/MariaDB server of"
                        + " spring.datasource.url.",
                "Create it (CREATE DATABASE `" + database + "`), or let the gateway create it at its first start by"
                        + " adding createDatabaseIfNotExist=true to spring.datasource.url (the user then needs the"
                        + " CREATE privilege).",
                null); // no cause: the chain of bean creations around it says nothing more
    }

    /** The Unknown-database error in {@code failure}'s chain of SQL exceptions, or null. */
    private static SQLException unknownDatabase(SQLException failure) {
        for (SQLException each = failure; each != null; each = each.getNextException()) {
            if (each.getErrorCode() == UNKNOWN_DATABASE) {
                return each;
            }
        }
        return null;
    }
}
