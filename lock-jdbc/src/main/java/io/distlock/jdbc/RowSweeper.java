package io.distlock.jdbc;

import io.distlock.Arguments;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Deletes the rows of names nobody uses any more (issue #33: per-entity locks, one name per order, used once), so
 * the lock table and the permit table hold only names in use plus those used within the last lease and
 * {@link #GRACE}. A lock row goes when it is free (released, or expired {@link #GRACE} ago) and its fence is more than
 * {@link #GRACE} below the database clock in microseconds; a semaphore's rows go together, under the lock of its
 * counter row (slot 0, which acquirers take first), when no permit is held or expired less than {@link #GRACE} ago
 * and its counter is that far below the clock. The condition is in the {@code DELETE} itself, evaluated on the row
 * as it is when the statement runs, so a row taken in between (or by a statement that waited on a lock) is never
 * deleted.
 *
 * <p>Why the tokens still never repeat: every grant's fence is {@code GREATEST(fence + 1, <clock µs>)} and a missing
 * row starts at the clock ({@link SqlDialect#fenceSeed()}). A row is deleted only once the clock has passed its
 * fence by {@link #GRACE}, also a fence that ran ahead of the clock (many grants within the same microseconds), so
 * the next grant, at least the clock, is larger than every token the row held. It trusts what the fence already
 * trusts: a database clock that does not step back by more than the grace.
 *
 * <p>It runs in small batches ({@value #WALK} names walked in primary-key order, at most {@value #BATCHES} batches a
 * tick) on a background thread every {@link #INTERVAL} while the store is in use (until its longest lease plus the
 * grace after its last grant), so an idle store sends nothing; rows of processes that stopped are swept by any other
 * that still grants.
 * Each name is its own bounded statement: a row another transaction keeps locked costs only that row a turn, never
 * another name its clean-up or its lease, and a failed tick is tried again at the next.
 *
 * <p>The permit table is swept only once this store has used a semaphore ({@link #permitTableInUse}): a store that
 * only locks sends it nothing (it is usually missing, and every failed statement on a missing table is a WARN in the
 * MariaDB client's log). Semaphores left by stopped processes are swept by any store that still uses semaphores.
 */
final class RowSweeper implements AutoCloseable {

    /** How long past its lease, and past the clock reaching its fence, a name's row stays. */
    static final Duration GRACE = Duration.ofSeconds(2);
    /** How often a store in use sweeps. */
    static final Duration INTERVAL = Duration.ofSeconds(1);
    /** How far ahead of the clock a fence may keep this store sweeping after its grant. */
    static final Duration MAX_AHEAD = Duration.ofHours(1);
    /** Names one batch walks in primary-key order, of which it deletes those the condition allows. */
    static final int WALK = 500;
    /** Batches one tick sweeps at most. */
    static final int BATCHES = 10;
    /** The bound of each statement, in seconds. */
    private static final int STATEMENT_SECONDS = 2;
    private static final System.Logger LOG = System.getLogger(RowSweeper.class.getName());

    private final JdbcBackend backend;
    private final SqlDialect dialect;
    private final String locks;
    private final String permits;
    private final String store;
    private final long graceMicros = GRACE.toNanos() / 1000;
    private final ScheduledThreadPoolExecutor executor;
    private final AtomicLong activeUntil = new AtomicLong(System.nanoTime());
    private final AtomicBoolean ticking = new AtomicBoolean();
    /** Whether this store has used a semaphore, so the permit table exists and has rows this store may leave. */
    private volatile boolean permitTableInUse;
    /** The last lock name the walk looked at ("" from the start); touched by one sweep at a time. */
    private volatile String lockCursor = "";
    /** The last semaphore name the walk looked at ("" from the start). */
    private volatile String permitCursor = "";

    RowSweeper(JdbcBackend backend, SqlDialect dialect, String redactedStore) {
        this.backend = backend;
        this.dialect = dialect;
        this.locks = dialect.table;
        this.permits = dialect.table + JdbcPermits.TABLE_SUFFIX;
        this.store = redactedStore;
        this.executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "distlock-jdbc-sweeper");
            t.setDaemon(true);
            return t;
        });
        executor.setKeepAliveTime(10, TimeUnit.SECONDS);
        executor.allowCoreThreadTimeOut(true);
    }

    /**
     * A grant of {@code leaseTime} with {@code fence} was made: keep sweeping until its row may be swept, also when
     * the fence is ahead of the clock (estimated here with this machine's clock, capped at {@link #MAX_AHEAD}: it
     * only decides how long this store keeps sweeping; whether a row goes is decided by the database's clock).
     */
    void granted(Duration leaseTime, long fence) {
        long aheadMicros = fence - System.currentTimeMillis() * 1000;
        long aheadNanos = Math.max(0, Math.min(aheadMicros, MAX_AHEAD.toNanos() / 1000)) * 1000;
        long until = System.nanoTime() + aheadNanos
                + leaseTime.plus(GRACE).plus(INTERVAL.multipliedBy(2)).toNanos();
        activeUntil.accumulateAndGet(until, (a, b) -> a - b >= 0 ? a : b);
        if (ticking.compareAndSet(false, true)) {
            schedule();
        }
    }

    /** This store found or created the permit table to use a semaphore: from now on the sweep covers it too. */
    void permitTableInUse() {
        permitTableInUse = true;
    }

    private void schedule() {
        try {
            executor.schedule(this::tick, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            ticking.set(false);
        }
    }

    private void tick() {
        try {
            sweepOnce();
        } catch (RuntimeException e) {
            // the store is down or closed, or the statement failed: the next tick tries again
            LOG.log(System.Logger.Level.DEBUG, "sweeping rows of unused names in store {0} failed: {1}", store,
                    e.toString());
        }
        if (System.nanoTime() - activeUntil.get() < 0) {
            schedule();
        } else {
            ticking.set(false);
            if (System.nanoTime() - activeUntil.get() < 0 && ticking.compareAndSet(false, true)) {
                schedule(); // a grant came in between
            }
        }
    }

    /**
     * One sweep: up to {@value #BATCHES} batches of the lock table and, once this store used a semaphore, of the
     * permit table. Answers how many names' rows it deleted.
     */
    int sweepOnce() {
        int deleted = 0;
        for (int i = 0; i < BATCHES; i++) {
            int[] batch = backend.withConnection("sweeping unused lock rows", this::sweepLocks);
            deleted += batch[1];
            if (batch[0] < WALK) {
                break;
            }
        }
        for (int i = 0; permitTableInUse && i < BATCHES; i++) {
            int[] batch = backend.withConnection("sweeping unused permit rows", this::sweepPermits);
            deleted += batch[1];
            if (batch[0] < WALK) {
                break;
            }
        }
        return deleted;
    }

    /** The free rows whose fence the clock has passed by the grace. */
    private String reclaimableLock() {
        return "(owner_token IS NULL OR expires_at IS NULL OR expires_at < " + dialect.nowPlusMicros()
                + ") AND fence < "
                + dialect.fenceSeed() + " - ?";
    }

    /**
     * {rows looked at, rows deleted} of one batch of the lock table: the next {@value #WALK} names after the cursor in
     * primary-key order, each flagged by the reclaim condition, so a batch reads at most that many rows however few
     * may go (a filter on unindexed columns with a LIMIT reads the whole table when fewer rows match); the cursor
     * goes back to the start after the last name.
     */
    private int[] sweepLocks(Connection c) throws SQLException {
        Walk walk;
        try (PreparedStatement ps = dialect.prepareBounded(c, "SELECT name, CASE WHEN " + reclaimableLock()
                + " THEN 1 ELSE 0 END FROM " + locks + " WHERE name > ? ORDER BY name LIMIT " + WALK,
                STATEMENT_SECONDS)) {
            ps.setLong(1, -graceMicros);
            ps.setLong(2, graceMicros);
            ps.setString(3, lockCursor);
            walk = Walk.of(ps);
        }
        lockCursor = walk.cursor();
        List<String> names = walk.reclaimable();
        int deleted = 0;
        try (PreparedStatement delete = dialect.prepareBounded(c, "DELETE FROM " + locks + " WHERE name = ? AND "
                + reclaimableLock(), STATEMENT_SECONDS)) {
            for (String name : names) {
                delete.setString(1, name);
                delete.setLong(2, -graceMicros);
                delete.setLong(3, graceMicros);
                deleted += deleteOne(delete, name);
            }
        }
        return new int[] {walk.seen(), deleted};
    }

    /** Semaphores whose counter the clock has passed by the grace and of which no permit is held nor recent. */
    private String reclaimableSemaphore(String alias) {
        return alias + "slot = 0 AND " + alias + "fence < " + dialect.fenceSeed()
                + " - ? AND NOT EXISTS (SELECT 1 FROM "
                + permits + " s WHERE s.name = " + alias + "name AND s.slot > 0 AND s.owner_token IS NOT NULL AND"
                + " s.expires_at IS NOT NULL AND s.expires_at >= " + dialect.nowPlusMicros() + ")";
    }

    /**
     * {counter rows looked at, names deleted} of one batch of the permit table, walked as {@link #sweepLocks} walks
     * the lock table; none if it was never created.
     */
    private int[] sweepPermits(Connection c) throws SQLException {
        Walk walk;
        try (PreparedStatement ps = dialect.prepareBounded(c, "SELECT c.name, CASE WHEN "
                + reclaimableSemaphore("c.") + " THEN 1 ELSE 0 END FROM " + permits + " c WHERE c.slot = 0 AND"
                + " c.name > ? ORDER BY c.name LIMIT " + WALK, STATEMENT_SECONDS)) {
            ps.setLong(1, graceMicros);
            ps.setLong(2, -graceMicros);
            ps.setString(3, permitCursor);
            walk = Walk.of(ps);
            permitCursor = walk.cursor();
        } catch (SQLException e) {
            if (dialect.isMissingTable(e)) {
                return new int[] {0, 0};
            }
            throw e;
        }
        int deleted = 0;
        for (String name : walk.reclaimable()) {
            deleted += deleteSemaphore(c, name);
        }
        return new int[] {walk.seen(), deleted};
    }

    /**
     * Deletes one semaphore's rows in a transaction that first locks its counter row, as acquirers do, and checks
     * again under that lock; 1 if it did.
     */
    private int deleteSemaphore(Connection c, String name) throws SQLException {
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        try {
            int deleted = 0;
            try (PreparedStatement lock = dialect.prepareBounded(c, "SELECT fence FROM " + permits
                    + " WHERE name = ? AND slot = 0 FOR UPDATE", STATEMENT_SECONDS)) {
                lock.setString(1, name);
                lock.execute();
                lock.getResultSet().close();
            }
            try (PreparedStatement check = dialect.prepareBounded(c, "SELECT COUNT(*) FROM " + permits + " c WHERE"
                    + " c.name = ? AND " + reclaimableSemaphore("c."), STATEMENT_SECONDS)) {
                check.setString(1, name);
                check.setLong(2, graceMicros);
                check.setLong(3, -graceMicros);
                check.execute();
                try (ResultSet rs = check.getResultSet()) {
                    rs.next();
                    if (rs.getInt(1) == 1) {
                        try (PreparedStatement delete = dialect.prepareBounded(c, "DELETE FROM " + permits
                                + " WHERE name = ?", STATEMENT_SECONDS)) {
                            delete.setString(1, name);
                            deleted = delete.executeUpdate() > 0 ? 1 : 0;
                        }
                    }
                }
            }
            c.commit();
            return deleted;
        } catch (SQLException e) {
            try {
                c.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback); // a broken connection: the pool evicts it
            }
            if (isOneRowsTrouble(e)) {
                return 0; // another transaction holds this semaphore's rows: its turn comes at the next tick
            }
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    /** Runs one name's bounded delete; a row locked by another transaction is skipped, not every name after it. */
    private int deleteOne(PreparedStatement delete, String name) throws SQLException {
        try {
            return delete.executeUpdate();
        } catch (SQLException e) {
            if (isOneRowsTrouble(e)) {
                LOG.log(System.Logger.Level.DEBUG, "row of {0} in store {1} not swept this time: {2}",
                        Arguments.quoted(name), store,
                        e.toString());
                return 0;
            }
            throw e;
        }
    }

    /** A failure that is this row's (locked by another transaction, a collision), not the database's. */
    private boolean isOneRowsTrouble(SQLException e) {
        return dialect.isContention(e) || SqlFailures.isTimeout(e);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }

    /**
     * One batch of the walk: how many names it looked at, the last of them, and those the reclaim condition
     * flagged. A walk that looked at fewer than {@value #WALK} names reached the end, so the next starts again.
     */
    private record Walk(int seen, String last, List<String> reclaimable) {

        /** Runs {@code ps} (name, flag) and reads its rows. */
        static Walk of(PreparedStatement ps) throws SQLException {
            List<String> flagged = new ArrayList<>();
            int seen = 0;
            String last = "";
            ps.execute(); // not executeQuery: Connector/J refuses it for a query prefixed by SET STATEMENT
            try (ResultSet rs = ps.getResultSet()) {
                while (rs.next()) {
                    seen++;
                    last = rs.getString(1);
                    if (rs.getInt(2) == 1) {
                        flagged.add(last);
                    }
                }
            }
            return new Walk(seen, last, flagged);
        }

        /** Where the next batch starts. */
        String cursor() {
            return seen < WALK ? "" : last;
        }
    }
}
