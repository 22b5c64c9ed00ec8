package io.distlock.jdbc;

import io.distlock.Arguments;
import io.distlock.LockAdmin;
import io.distlock.LockInfo;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL store's operator view: held rows (owned and unexpired by the database clock) by name prefix, held
 * semaphore permits the same way, and a
 * forced release that clears the owner but keeps the row, so fencing tokens keep increasing afterwards.
 */
final class JdbcLockAdmin implements LockAdmin {

    private final JdbcBackend backend;
    private final SqlDialect dialect;

    JdbcLockAdmin(JdbcBackend backend, SqlDialect dialect) {
        this.backend = backend;
        this.dialect = dialect;
    }

    @Override
    public List<LockInfo> list(String prefix, int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, got " + limit);
        }
        String pattern = escapeLike(storable(prefix)) + "%";
        try {
            return backend.withConnection("listing locks", c -> {
                try (PreparedStatement ps = c.prepareStatement(dialect.listSql())) {
                    ps.setString(1, pattern);
                    ps.setInt(2, limit);
                    List<LockInfo> out = new ArrayList<>();
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            long micros = Math.max(0, rs.getLong(3));
                            out.add(new LockInfo(rs.getString(1), rs.getLong(2), Duration.ofNanos(micros * 1000),
                                    rs.getString(4)));
                        }
                    }
                    return out;
                }
            });
        } catch (JdbcBackend.ContentionException e) {
            throw new IllegalStateException("listing locks collided with another transaction; try again", e);
        }
    }

    @Override
    public boolean listsPermits() {
        return true;
    }

    @Override
    public List<LockInfo> listPermits(String prefix, int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, got " + limit);
        }
        try {
            return backend.permitTable().list(storable(prefix), limit);
        } catch (JdbcBackend.ContentionException e) {
            throw new IllegalStateException("listing permits collided with another transaction; try again", e);
        }
    }

    @Override
    public boolean forceRelease(String name) {
        dialect.requireStorable(name);
        try {
            boolean released = backend.withConnection("force-releasing " + Arguments.quoted(name), c -> {
                try (PreparedStatement ps = c.prepareStatement(dialect.forceReleaseSql())) {
                    ps.setString(1, name);
                    return ps.executeUpdate() == 1;
                }
            });
            backend.signals().signal(name);
            return released;
        } catch (JdbcBackend.ContentionException e) {
            throw new IllegalStateException("force-releasing " + Arguments.quoted(name)
                    + " collided with another transaction;"
                    + " try again", e);
        }
    }

    /** One {@code UPDATE ... WHERE name = ? AND fence = ?} on a held row: compare and release in one statement. */
    @Override
    public boolean forceRelease(String name, long fencingToken) {
        dialect.requireStorable(name);
        try {
            boolean released = backend.withConnection("force-releasing " + Arguments.quoted(name), c -> {
                try (PreparedStatement ps = c.prepareStatement(dialect.forceReleaseIfSql())) {
                    ps.setString(1, name);
                    ps.setLong(2, fencingToken);
                    return ps.executeUpdate() == 1;
                }
            });
            if (released) {
                backend.signals().signal(name);
            }
            return released;
        } catch (JdbcBackend.ContentionException e) {
            throw new IllegalStateException("force-releasing " + Arguments.quoted(name)
                    + " collided with another transaction;"
                    + " try again", e);
        }
    }

    /**
     * {@code prefix} ({@code ""} for null), refused as a name the database cannot store is: no name held could start
     * with it, and the database would answer with a store error.
     */
    private String storable(String prefix) {
        String p = prefix == null ? "" : prefix;
        dialect.requireStorable(p, "prefix");
        return p;
    }

    /** Escapes LIKE wildcards with '!' so a prefix matches literally. */
    static String escapeLike(String s) {
        return s.replace("!", "!!").replace("%", "!%").replace("_", "!_");
    }
}
