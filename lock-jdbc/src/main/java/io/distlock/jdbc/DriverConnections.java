package io.distlock.jdbc;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The data source the pool draws connections from: one explicitly chosen driver, a URL without secrets, and the
 * secrets (user, password, secret-bearing parameters) as connection properties. HikariCP logs its configuration and
 * quotes the URL in errors; handed this instead of a URL, user and password, it has nothing secret to show, since
 * {@link #toString()} is the redacted store URI.
 */
final class DriverConnections implements DataSource {

    private final Driver driver;
    private final String url;
    private final Properties properties;
    private final String redacted;
    private volatile int loginTimeoutSeconds;
    private volatile SessionCheck check;

    /** What a new connection must show before it is used: null if it is fine, else the problem. */
    @FunctionalInterface
    interface SessionCheck {
        String problem(Connection c) throws SQLException;
    }

    DriverConnections(Driver driver, String url, Properties properties, String redacted) {
        this.driver = driver;
        this.url = url;
        this.properties = properties;
        this.redacted = redacted;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection c = driver.connect(url, properties);
        if (c == null) {
            throw new SQLException("the driver " + driver.getClass().getName() + " does not accept the URL of "
                    + redacted, "08001");
        }
        SessionCheck required = check;
        if (required != null) {
            String problem;
            try {
                problem = required.problem(c);
            } catch (SQLException | RuntimeException e) {
                closeAfterFailure(c, e);
                throw e;
            }
            if (problem != null) {
                SQLException refused = new SQLException("store " + redacted + ": " + problem, "HY000");
                closeAfterFailure(c, refused);
                throw refused;
            }
        }
        return c;
    }

    /**
     * From now on every new connection is checked by {@code required} before the pool gets it, so a connection that
     * behaves unsafely (a host of a multi-host URL with its own properties, say) is never used; connections opened
     * before are the caller's to check.
     */
    void checkEveryConnection(SessionCheck required) {
        check = required;
    }

    private static void closeAfterFailure(Connection c, Exception failure) {
        try {
            c.close();
        } catch (SQLException e) {
            failure.addSuppressed(e);
        }
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("the store's credentials come from its URL");
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        // the pool asks; drivers log through their own loggers
    }

    /**
     * Kept only to be read back: the pool waits this long for connection attempts in flight when it shuts down. The
     * drivers get their connect timeout as a property.
     */
    @Override
    public void setLoginTimeout(int seconds) {
        loginTimeoutSeconds = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeoutSeconds;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper for " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    /** Never shows a secret. */
    @Override
    public String toString() {
        return "DriverConnections[" + redacted + "]";
    }
}
