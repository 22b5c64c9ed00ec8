package io.distlock.jdbc;

import io.distlock.LockException;
import io.distlock.StoreUnavailableException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;

/**
 * Turns SQL errors into distlock's exceptions. Losing the database (no connection in time, a broken socket, a
 * server shutting down, a statement timeout) is {@link StoreUnavailableException}, never "not acquired"; anything
 * else is a {@link LockException} naming the SQL state, so a missing privilege or table is not mistaken for an
 * outage. Messages name the store by its redacted URI only.
 */
final class SqlFailures {

    private final String store;

    SqlFailures(String redactedUri) {
        this.store = redactedUri;
    }

    /**
     * Whether {@code e} says a statement ran past its query timeout: the JDBC timeout exception, or the database's
     * own cancel error (PostgreSQL and H2 57014, MySQL 3024 and 1317, MariaDB 1969), or a socket read timeout.
     */
    static boolean isTimeout(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLTimeoutException || t instanceof java.net.SocketTimeoutException) {
                return true;
            }
            if (t instanceof SQLException s) {
                int code = s.getErrorCode();
                if ("57014".equals(s.getSQLState()) || code == 57014 || code == 3024 || code == 1317
                        || code == 1969) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether {@code e} says a statement gave up waiting for a row lock another transaction holds (PostgreSQL 55P03,
     * MySQL/MariaDB 1205, H2 50200): the statement is dead, nothing of it was committed.
     */
    static boolean isLockWaitTimeout(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && ("55P03".equals(s.getSQLState()) || s.getErrorCode() == 1205
                    || s.getErrorCode() == 50200)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code e} says the database refused the login: wrong password, a user or role that does not exist or
     * may not connect (SQLState class 28), a database that does not exist (PostgreSQL 3D000, MySQL/MariaDB 1044, 1045,
     * 1049, 1698; H2 90146). Such a store cannot be used, as one that cannot be reached.
     */
    static boolean isLoginRefused(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s) {
                String state = s.getSQLState() == null ? "" : s.getSQLState();
                int code = s.getErrorCode();
                if (state.startsWith("28") || state.equals("3D000") || code == 1044 || code == 1045 || code == 1049
                        || code == 1698 || code == 90146) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@code e} means the database could not be reached or did not answer in time. */
    static boolean isUnavailable(SQLException e) {
        if (isTimeout(e)) {
            return true;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException
                    || t instanceof SQLRecoverableException || t instanceof SQLTimeoutException) {
                return true;
            }
            if (t instanceof SQLException s) {
                String state = s.getSQLState() == null ? "" : s.getSQLState();
                int code = s.getErrorCode();
                if (state.startsWith("08") // connection exception (all databases)
                        || state.equals("57P01") || state.equals("57P02") || state.equals("57P03") // pg shutdown
                        || state.equals("53300") // pg too many connections
                        || code == 1040 || code == 1053 || code == 2006 || code == 2013 // mysql gone / shutdown
                        || code == 90067 || code == 90098 || code == 90121) { // h2 connection broken / closed
                    return true;
                }
            }
            if (t instanceof java.io.IOException) {
                return true;
            }
        }
        return false;
    }

    /** The exception to throw for {@code e}, raised while doing {@code what}. */
    RuntimeException translate(SQLException e, String what) {
        if (isUnavailable(e)) {
            return new StoreUnavailableException("database of store " + store + " unavailable while " + what + ": "
                    + e.getMessage(), e);
        }
        return new LockException("SQL error while " + what + " in store " + store + " (SQLState "
                + SqlDialect.sqlState(e) + ", code " + e.getErrorCode() + "): " + e.getMessage(), e);
    }
}
