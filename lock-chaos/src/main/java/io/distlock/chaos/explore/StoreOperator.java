package io.distlock.chaos.explore;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.RedisClient;

/**
 * An operator's hand on a store's data for the explorer's operator faults, on a connection of its own straight to the
 * server: deleting what the store keeps for a name, overwriting its fencing counter, or holding its rows in a
 * transaction. Keys and tables are the stores' defaults ({@code distlock:{NAME}:...} keys; {@code distlock_locks} and
 * {@code distlock_locks_permits}). Each action answers what it did, for the run's history.
 */
final class StoreOperator {

    private static final String LOCKS = "distlock_locks";
    private static final String PERMITS = LOCKS + "_permits";

    private final ExploreStore store;
    private final int port;
    private final String name;
    private final boolean permits;

    StoreOperator(ExploreStore store, int port, String name, boolean permits) {
        this.store = store;
        this.port = port;
        this.name = name;
        this.permits = permits;
    }

    /** Does {@code fault} to the store now; returns what it did. {@code hold}: how long a row lock is kept. */
    String act(Fault fault, Duration hold) throws Exception {
        return switch (fault) {
            case OPERATOR_DELETE -> store.sql() ? sql("DELETE FROM %s WHERE name = ?", false) : redisDelete();
            case OPERATOR_EXHAUST -> store.sql() ? sql("UPDATE %s SET fence = " + Long.MAX_VALUE + " WHERE name = ?",
                    true) : redisFence(Long.toString((1L << 53) - 1), false);
            case OPERATOR_GARBLE -> store.sql() ? sql("UPDATE %s SET fence = -5 WHERE name = ?", true)
                    : redisFence("nan", false);
            case OPERATOR_RETYPE -> redisFence(null, true);
            case ROW_LOCKED -> lockRows(hold);
            default -> throw new IllegalArgumentException(fault.label() + " is no operator fault");
        };
    }

    /** Runs {@code sql} (table as %s, name as ?) on the lock or permit table; counter rows only if {@code fence}. */
    private String sql(String sql, boolean fence) throws SQLException {
        String table = permits ? PERMITS : LOCKS;
        String statement = String.format(sql, table) + (permits && fence ? " AND slot = 0" : "");
        try (Connection c = DriverManager.getConnection(store.operatorJdbcUrl(port));
                PreparedStatement ps = c.prepareStatement(statement)) {
            ps.setString(1, name);
            return statement + ": " + ps.executeUpdate() + " row(s)";
        } catch (SQLException e) {
            return statement + ": " + e.getMessage(); // no table yet: nothing to act on
        }
    }

    private String redisDelete() {
        try (RedisClient raw = RedisClient.create("127.0.0.1", port)) {
            Set<String> keys = raw.keys("*{" + name + "}*");
            long deleted = keys.isEmpty() ? 0 : raw.del(keys.toArray(String[]::new));
            return "DEL " + keys + ": " + deleted;
        }
    }

    /** Sets the name's fencing counter to {@code value}, or (retype) replaces it by a hash. */
    private String redisFence(String value, boolean retype) {
        String key = "distlock:{" + name + "}:" + (permits ? "semfence" : "fence");
        try (RedisClient raw = RedisClient.create("127.0.0.1", port)) {
            Set<String> keys = raw.keys("*{" + name + "}:" + (permits ? "semfence" : "fence"));
            if (!keys.isEmpty()) {
                key = keys.iterator().next();
            }
            if (retype) {
                raw.del(key);
                raw.hset(key, "operator", "1");
                return "HSET " + key;
            }
            raw.set(key, value);
            return "SET " + key + " " + value;
        }
    }

    /**
     * Locks the name's rows in a transaction of the operator's (on PostgreSQL the whole table when the name has no row
     * yet), returns once they are locked, and rolls back after {@code hold} on a thread of its own.
     */
    private String lockRows(Duration hold) throws Exception {
        CountDownLatch locked = new CountDownLatch(1);
        String[] what = {"no row locked"};
        Thread t = new Thread(() -> {
            try (Connection c = DriverManager.getConnection(store.operatorJdbcUrl(port))) {
                c.setAutoCommit(false);
                String table = permits ? PERMITS : LOCKS;
                int rows = 0;
                try (PreparedStatement ps = c.prepareStatement("SELECT name FROM " + table
                        + " WHERE name = ? FOR UPDATE")) {
                    ps.setString(1, name);
                    try (var rs = ps.executeQuery()) {
                        while (rs.next()) {
                            rows++;
                        }
                    }
                }
                what[0] = rows + " row(s) of " + table + " locked";
                if (rows == 0 && store.postgres()) {
                    try (Statement st = c.createStatement()) {
                        st.execute("LOCK TABLE " + table + " IN SHARE ROW EXCLUSIVE MODE");
                        what[0] = table + " locked (no row yet)";
                    }
                }
                locked.countDown();
                Thread.sleep(hold.toMillis()); // the other transaction's work: the fault itself
                c.rollback();
            } catch (SQLException e) {
                what[0] = "row lock failed: " + e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                locked.countDown();
            }
        }, "explore-operator-tx");
        t.setDaemon(true);
        t.start();
        locked.await(5, TimeUnit.SECONDS);
        return what[0];
    }
}
