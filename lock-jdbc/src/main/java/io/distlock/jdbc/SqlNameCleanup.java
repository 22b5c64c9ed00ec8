package io.distlock.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.spi.StoreUri;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Deletes every row a SQL store keeps for the names starting with a prefix (its lock table's rows and its permit
 * table's): for a program whose names are its own, such as a demo run or a test, to leave nothing behind. It
 * connects as the store would and matches the prefix literally ({@code %} and {@code _} are not wildcards).
 *
 * <p>A name's lock row carries its fencing counter, so deleting it lets a later holder of that same name start from
 * the store's floor again: use it only for names nothing will ever take again (a prefix unique to one run).
 */
public final class SqlNameCleanup {

    private SqlNameCleanup() {
    }

    /**
     * Deletes the rows of every name starting with {@code namePrefix} in the store {@code storeUri} opens; a table
     * that does not exist (the permit table before a semaphore's first use) has nothing to delete. Returns how many
     * rows were deleted.
     *
     * @throws IllegalArgumentException if the prefix is empty or the URI is not a SQL store's
     * @throws io.distlock.StoreUnavailableException if the database is not reached
     * @throws io.distlock.LockException if the database refuses a deletion
     */
    public static long deleteNames(String storeUri, String namePrefix) {
        if (namePrefix == null || namePrefix.isEmpty()) {
            throw new IllegalArgumentException("a name prefix to delete must be non-empty, got '" + namePrefix + "'");
        }
        JdbcSettings settings = JdbcSettings.parse(StoreUri.parse(storeUri));
        SqlDialect dialect = JdbcLockStoreProvider.dialectFor(settings);
        String[] tables = {settings.table(), settings.table() + JdbcPermits.TABLE_SUFFIX};
        try (HikariDataSource pool = JdbcLockStoreProvider.startPool(settings, dialect);
                Connection c = pool.getConnection()) {
            long deleted = 0;
            for (String table : tables) {
                deleted += deleteRows(c, dialect, table, namePrefix);
            }
            return deleted;
        } catch (SQLException e) {
            throw new SqlFailures(settings.redacted()).translate(e, "deleting the rows of names " + namePrefix + "*");
        }
    }

    private static long deleteRows(Connection c, SqlDialect dialect, String table, String namePrefix)
            throws SQLException {
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM " + table + " WHERE name LIKE ? ESCAPE '!'")) {
            delete.setString(1, JdbcLockAdmin.escapeLike(namePrefix) + "%");
            return delete.executeUpdate();
        } catch (SQLException e) {
            if (dialect.isMissingTable(e)) {
                return 0;
            }
            throw e;
        }
    }
}
