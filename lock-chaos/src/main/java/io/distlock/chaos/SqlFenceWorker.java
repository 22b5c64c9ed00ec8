package io.distlock.chaos;

import static io.distlock.chaos.ChaosWorker.emit;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.StaleFenceException;
import io.distlock.StoreUnavailableException;
import io.distlock.jdbc.SqlFence;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A lock holder in its own JVM that protects a row of a SQL database with {@link SqlFence}: acquire the lock (any
 * store), do part of the hold's work (where a pause lands before the transaction), then in one transaction
 * {@code advance} the fence with the lease's token, read the counter row, do the rest of the work, write the value
 * read plus one and commit; release. It does not check {@code isValid()} first, on purpose. Events: the lock
 * worker's ACQ_*, LOST_SIGNAL and REL_*, and SQL_REFUSED (StaleFenceException), SQL_ERROR (any other SQLException
 * before the commit), SQL_COMMIT_INVOKE, SQL_COMMIT_OK and SQL_COMMIT_UNKNOWN (the commit itself failed).
 *
 * <p>Arguments: as {@link ChaosWorker}'s (the register file is not used), then JDBC_URL FENCE_TABLE COUNTER_TABLE
 * RESOURCE. The counter table has one row {@code (id = 1, v)}.
 */
public final class SqlFenceWorker {

    private SqlFenceWorker() {
    }

    /** Entry point. */
    public static void main(String[] args) {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        String label = args[0];
        LockOptions options = LockOptions.defaults().withLeaseTime(Duration.ofMillis(Long.parseLong(args[3])));
        ChaosWorker.Workload workload = new ChaosWorker.Workload(Long.parseLong(args[4]), Long.parseLong(args[5]), 0);
        Duration acquireTimeout = Duration.ofMillis(Long.parseLong(args[6]));
        Sql sql = new Sql(args[8], SqlFence.table(args[9]), args[10], args[11]);
        ChaosWorker.Parent parent = ChaosWorker.listen(out);
        AtomicBoolean stop = parent.stop();
        LockStore store = ChaosWorker.openWithRetry(parent.storeUri(), out, label);
        out.println("READY");
        while (!stop.get()) {
            round(store, args[1], options, acquireTimeout, workload, sql, label, out);
        }
        try {
            store.close();
        } catch (RuntimeException e) {
            out.println("CLOSE_FAILED " + e.getClass().getSimpleName());
        }
        sql.close();
        out.println("STOPPED");
        System.exit(0);
    }

    private static void round(LockStore store, String lockName, LockOptions options, Duration acquireTimeout,
            ChaosWorker.Workload workload, Sql sql, String label, PrintStream out) {
        Optional<Lease> acquired = ChaosWorker.acquireRecorded(() -> store.lock(lockName, options)
                .tryAcquire(acquireTimeout), label, out);
        if (acquired.isEmpty()) {
            return;
        }
        Lease lease = acquired.get();
        long token = lease.fencingToken();
        long hold = workload.holdNanos();
        long before = ThreadLocalRandom.current().nextLong(hold + 1);
        LockSupport.parkNanos(before); // work before the transaction: a pause here meets the fence at advance
        sql.transaction(token, hold - before, label, out);
        long releasing = System.nanoTime();
        try {
            lease.release();
            emit(out, label, "REL_OK", token, releasing);
        } catch (LockLostException e) {
            emit(out, label, "REL_LOST", token, releasing);
        } catch (StoreUnavailableException e) {
            emit(out, label, "REL_UNKNOWN", token, releasing);
        }
        LockSupport.parkNanos(workload.thinkNanos()); // the service's own pause between two critical sections
    }

    /** The worker's connection to the database, reopened after a failure, and the fenced transaction. */
    private static final class Sql {
        private final String url;
        private final SqlFence fence;
        private final String counterTable;
        private final String resource;
        private Connection connection;

        Sql(String url, SqlFence fence, String counterTable, String resource) {
            this.url = url;
            this.fence = fence;
            this.counterTable = counterTable;
            this.resource = resource;
        }

        void transaction(long token, long workNanos, String label, PrintStream out) {
            Connection c;
            try {
                c = connection();
                fence.advance(c, resource, token);
                long value;
                try (PreparedStatement st = c.prepareStatement("SELECT v FROM " + counterTable + " WHERE id = 1");
                        ResultSet rs = st.executeQuery()) {
                    rs.next();
                    value = rs.getLong(1);
                }
                LockSupport.parkNanos(workNanos); // work inside the transaction, the fence row locked
                try (PreparedStatement st = c.prepareStatement("UPDATE " + counterTable + " SET v = ? WHERE id = 1")) {
                    st.setLong(1, value + 1);
                    st.executeUpdate();
                }
            } catch (StaleFenceException e) {
                emit(out, label, "SQL_REFUSED", token);
                rollback();
                return;
            } catch (SQLException e) {
                emit(out, label, "SQL_ERROR", token);
                rollback();
                return;
            }
            emit(out, label, "SQL_COMMIT_INVOKE", token);
            try {
                c.commit();
                emit(out, label, "SQL_COMMIT_OK", token);
            } catch (SQLException e) {
                emit(out, label, "SQL_COMMIT_UNKNOWN", token);
                rollback();
            }
        }

        private Connection connection() throws SQLException {
            if (connection == null) {
                connection = DriverManager.getConnection(url);
                connection.setAutoCommit(false);
            }
            return connection;
        }

        private void rollback() {
            if (connection == null) {
                return;
            }
            try {
                connection.rollback();
            } catch (SQLException e) {
                close(); // a broken connection: the next transaction opens a new one
            }
        }

        void close() {
            if (connection != null) {
                try {
                    connection.close();
                } catch (SQLException e) {
                    // closing a broken connection; nothing to keep
                }
                connection = null;
            }
        }
    }
}
