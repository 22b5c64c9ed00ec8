package io.distlock.jdbc;

import io.distlock.Arguments;
import io.distlock.LockException;
import io.distlock.StoreUnavailableException;
import io.distlock.spi.Grant;
import io.distlock.LockInfo;
import io.distlock.spi.OwnerTokens;
import io.distlock.spi.PermitBackend;
import io.distlock.spi.PermitWaits;
import io.distlock.spi.ReleaseSignals;
import io.distlock.spi.Renewal;
import io.distlock.spi.Wait;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Semaphores on the SQL store, in a permit table of their own ({@code <lock table>_permits}, created on first use
 * from {@code io/distlock/jdbc/permits-<dialect>.sql}): per name, slot 0 holds the fencing counter and slots 1..n
 * the permits. An acquire is one short transaction that first locks the name's slot-0 row ({@code FOR UPDATE}), so
 * acquirers of one name take turns in the database; under that lock it counts the live permits by the database
 * clock, checks the limit they recorded, advances the fence to the larger of itself plus one and the database clock
 * in microseconds (so deleted or rolled-back rows never repeat a token, see {@link SqlDialect#fenceSeed()}) and
 * takes a free or expired slot, or adds one. Release and renewal are single updates conditioned on the owner token
 * and the database clock.
 */
final class JdbcPermits {

    /** The highest limit a SQL semaphore takes. */
    static final int MAX_PERMITS = 10_000;
    private static final int OWNER_LENGTH = 255;

    /** What the store appends to its lock table's name to name its permit table. */
    static final String TABLE_SUFFIX = "_permits";

    private final JdbcBackend backend;
    private final SqlDialect dialect;
    /** The semaphores' signals, apart from the locks': a lock may bear any name a semaphore does. */
    private final ReleaseSignals signals;
    private final RemoteWakeups remote;
    private final String table;
    private final String nowMicros;
    private final AtomicBoolean tableReady = new AtomicBoolean();
    private final AbandonedAcquisitions abandoned;
    private final SchemaInstaller installer;

    JdbcPermits(JdbcBackend backend, SqlDialect dialect, ReleaseSignals signals, RemoteWakeups remote, String store,
            AbandonedAcquisitions abandoned, long socketTimeoutMillis) {
        this.backend = backend;
        this.installer = SchemaInstaller.permitTable(dialect, store, socketTimeoutMillis);
        this.abandoned = abandoned;
        this.dialect = dialect;
        this.signals = signals;
        this.remote = remote;
        this.table = dialect.table + TABLE_SUFFIX;
        this.nowMicros = dialect.fenceSeed();
    }

    Grant acquire(String name, int permits, Duration leaseTime, Wait wait) throws InterruptedException {
        try {
            // a single try ignores the interrupt: the probe's pool wait is waited again, as its attempt's (S106)
            ensureTable("waiting for a permit of semaphore " + Arguments.quoted(name), wait.isNone());
        } catch (LockException e) {
            if (WaitInterrupted.raised(e)) { // for another store's table creation, or for a pooled connection
                throw WaitInterrupted.interruption(e);
            }
            throw e;
        }
        long micros = micros(leaseTime);
        // polled as the store's locks are (distlock.pollMinMillis..pollMaxMillis); a permit's holder TTL is unknown
        return PermitWaits.acquire(signals, name, wait, failures -> backend.pollDelayNanos(failures, -1), () -> {
            Grant grant = attempt(name, permits, micros, wait.isNone());
            if (grant == null && !wait.isNone()) {
                remote.permitWaiting(name); // a waiting acquire found it full: ask other processes to tell
            }
            return grant;
        });
    }

    /** Wakes every permit waiter of this store's table in this JVM, so each looks at its wait at once. */
    void wakeAll() {
        signals.signalAll();
    }

    /**
     * One attempt: the grant, or null. A single try ({@code once}) ignores the interrupt, as {@code Lock.tryLock()}
     * does: a pool wait an interrupt ended is waited again (DEFECTS S104); an attempt of a wait ends on it.
     */
    private Grant attempt(String name, int permits, long leaseMicros, boolean once) {
        String token = OwnerTokens.newToken();
        String owner = owner();
        Outcome outcome;
        boolean[] sent = {false};
        try {
            outcome = backend.withConnection(once, "acquiring a permit of " + Arguments.quoted(name), c -> {
                sent[0] = true;
                return inTransaction(c, name, permits, token, owner, leaseMicros);
            });
            if (outcome.missingCounter) {
                try {
                    backend.withConnection(once, "creating the permit counter of " + Arguments.quoted(name),
                            c -> insertCounter(c, name));
                } catch (JdbcBackend.ContentionException concurrentlyCreated) {
                    // another client inserted it first: it exists now
                }
                outcome = backend.withConnection(once, "acquiring a permit of " + Arguments.quoted(name), c -> {
                    sent[0] = true;
                    return inTransaction(c, name, permits, token, owner, leaseMicros);
                });
            }
        } catch (JdbcBackend.ContentionException e) {
            return null; // another transaction got in the way: the next attempt decides
        } catch (StoreUnavailableException e) {
            if (sent[0]) {
                // the commit may have reached the database and only its answer been lost: free our token's permit
                abandoned.abandon(name, token, Duration.ofNanos(leaseMicros * 1000), this::freeAbandoned);
            }
            if (!once && Thread.currentThread().isInterrupted()) {
                // the driver gave up on the interrupted thread; the waiting loop raises it. A single try ignores the
                // interrupt: its failure (no connection came, S103) is its answer, not "full" (DEFECTS S105)
                return null;
            }
            throw e;
        } catch (LockException e) {
            if (WaitInterrupted.raised(e)) {
                return null; // interrupted waiting for a pooled connection: the waiting loop raises it
            }
            throw e;
        }
        if (outcome.recordedLimit > 0) {
            throw new IllegalStateException(PermitBackend.limitMismatch(name, outcome.recordedLimit, permits));
        }
        if (outcome.fence == 0) {
            return null;
        }
        backend.granted(Duration.ofNanos(leaseMicros * 1000), outcome.fence);
        return new Grant(name, token, outcome.fence, null);
    }

    /** What one acquire transaction found. */
    private record Outcome(long fence, int recordedLimit, boolean missingCounter) {
        static final Outcome FULL = new Outcome(0, 0, false);
        static final Outcome NO_COUNTER = new Outcome(0, 0, true);
    }

    private Outcome inTransaction(Connection c, String name, int permits, String token, String owner,
            long leaseMicros) throws SQLException {
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        Outcome outcome;
        try {
            outcome = take(c, name, permits, token, owner, leaseMicros);
            c.commit();
        } catch (SQLException | RuntimeException e) {
            // on a broken connection (a lost commit answer) the rollback fails too: report the first failure
            try {
                c.rollback();
                c.setAutoCommit(true);
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        }
        c.setAutoCommit(true);
        return outcome;
    }

    private Outcome take(Connection c, String name, int permits, String token, String owner, long leaseMicros)
            throws SQLException {
        try (PreparedStatement lock = c.prepareStatement(
                "SELECT fence FROM " + table + " WHERE name = ? AND slot = 0 FOR UPDATE")) {
            lock.setString(1, name);
            try (ResultSet rs = lock.executeQuery()) {
                if (!rs.next()) {
                    return Outcome.NO_COUNTER;
                }
            }
        }
        int live = 0;
        int recorded = 0;
        int freeSlot = 0;
        int lastSlot = 0;
        try (PreparedStatement slots = c.prepareStatement("SELECT slot, permits, CASE WHEN " + dialect.held()
                + " THEN 1 ELSE 0 END FROM " + table + " WHERE name = ? AND slot > 0 ORDER BY slot FOR UPDATE")) {
            slots.setString(1, name);
            try (ResultSet rs = slots.executeQuery()) {
                while (rs.next()) {
                    int slot = rs.getInt(1);
                    lastSlot = Math.max(lastSlot, slot);
                    if (rs.getInt(3) == 1) {
                        live++;
                        if (rs.getInt(2) != permits) {
                            recorded = rs.getInt(2);
                        }
                    } else if (freeSlot == 0) {
                        freeSlot = slot;
                    }
                }
            }
        }
        if (recorded > 0) {
            return new Outcome(0, recorded, false);
        }
        if (live >= permits) {
            return Outcome.FULL;
        }
        try (PreparedStatement advance = c.prepareStatement("UPDATE " + table + " SET fence = GREATEST(fence + 1, "
                + nowMicros + ") WHERE name = ? AND slot = 0")) {
            advance.setString(1, name);
            advance.executeUpdate();
        }
        long fence;
        try (PreparedStatement read = c.prepareStatement(
                "SELECT fence FROM " + table + " WHERE name = ? AND slot = 0")) {
            read.setString(1, name);
            try (ResultSet rs = read.executeQuery()) {
                rs.next();
                fence = rs.getLong(1);
            }
        }
        String sql = freeSlot > 0
                ? "UPDATE " + table + " SET owner_token = ?, fence = ?, expires_at = " + dialect.nowPlusMicros()
                        + ", owner = ?, permits = ? WHERE name = ? AND slot = ?"
                : "INSERT INTO " + table + " (owner_token, fence, expires_at, owner, permits, name, slot)"
                        + " VALUES (?, ?, " + dialect.nowPlusMicros() + ", ?, ?, ?, ?)";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, token);
            ps.setLong(2, fence);
            ps.setLong(3, leaseMicros);
            ps.setString(4, owner);
            ps.setInt(5, permits);
            ps.setString(6, name);
            ps.setInt(7, freeSlot > 0 ? freeSlot : lastSlot + 1);
            ps.executeUpdate();
        }
        return new Outcome(fence, 0, false);
    }

    private Void insertCounter(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table
                + " (name, slot, fence, permits) VALUES (?, 0, " + nowMicros + ", 0)")) {
            ps.setString(1, name);
            ps.executeUpdate();
        }
        return null;
    }

    /**
     * The held permits of names starting with {@code prefix}, by name then token, at most {@code limit}; none if the
     * permit table was never created (listing creates nothing).
     */
    List<LockInfo> list(String prefix, int limit) {
        String pattern = JdbcLockAdmin.escapeLike(prefix == null ? "" : prefix) + "%";
        return backend.withConnection("listing permits", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT name, fence, " + dialect.microsLeft()
                    + " AS micros_left, owner FROM " + table + " WHERE name LIKE ? ESCAPE '!' AND slot > 0 AND "
                    + dialect.held() + " ORDER BY name, fence LIMIT ?")) {
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
            } catch (SQLException e) {
                if (dialect.isMissingTable(e)) {
                    return List.<LockInfo>of();
                }
                throw e;
            }
        });
    }

    /** Frees the permit of {@code token}, taken by an acquire whose answer was lost; true if it did. */
    private boolean freeAbandoned(String name, String token) {
        return release(new Grant(name, token, 1, null));
    }

    /** A ticket on the wake-up a release of semaphore {@code name} sends to this store's waiters: for tests. */
    ReleaseSignals.Ticket releaseProbe(String name) {
        return signals.ticket(name);
    }

    boolean release(Grant grant) {
        try {
            return backend.withConnectionUninterruptibly("releasing a permit of " + Arguments.quoted(grant.name()),
                    c -> {
                try (PreparedStatement ps = c.prepareStatement("UPDATE " + table
                        + " SET owner_token = NULL, expires_at = NULL, owner = NULL"
                        + " WHERE name = ? AND slot > 0 AND owner_token = ? AND expires_at > " + dialect.now())) {
                    ps.setString(1, grant.name());
                    ps.setString(2, grant.ownerToken());
                    return ps.executeUpdate() == 1;
                }
            });
        } finally {
            signals.signal(grant.name());
            remote.permitReleased(grant.name());
        }
    }

    /** Renews each permit with one conditioned update, on one connection; a permit whose update is 0 is checked. */
    Set<Grant> renew(List<Renewal> renewals) {
        Set<Grant> lost = new HashSet<>();
        if (renewals.isEmpty()) {
            return lost;
        }
        ensureTable("renewing " + renewals.size() + " permit(s)", true);
        // run without the caller's flag for extend and releaseAfter: a pool wait an interrupt ended is waited again
        backend.withConnectionUninterruptibly("renewing " + renewals.size() + " permit(s)", c -> {
            String where = " WHERE name = ? AND slot > 0 AND owner_token = ? AND expires_at > " + dialect.now();
            try (PreparedStatement update = c.prepareStatement(
                    "UPDATE " + table + " SET expires_at = " + dialect.nowPlusMicros() + where);
                    PreparedStatement check = c.prepareStatement("SELECT 1 FROM " + table + where)) {
                for (Renewal r : renewals) {
                    update.setLong(1, micros(r.leaseTime()));
                    update.setString(2, r.grant().name());
                    update.setString(3, r.grant().ownerToken());
                    if (update.executeUpdate() == 1) {
                        continue;
                    }
                    // MySQL counts changed rows only: an update within the same millisecond changes nothing
                    check.setString(1, r.grant().name());
                    check.setString(2, r.grant().ownerToken());
                    try (ResultSet rs = check.executeQuery()) {
                        if (!rs.next()) {
                            lost.add(r.grant());
                        }
                    }
                }
            }
            return null;
        });
        return lost;
    }

    int held(String name) {
        ensureTable("counting the permits of " + Arguments.quoted(name), false);
        return backend.withConnection("counting the permits of " + Arguments.quoted(name), c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM " + table
                    + " WHERE name = ? AND slot > 0 AND " + dialect.held())) {
                ps.setString(1, name);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        });
    }

    /**
     * {@link #ensureTable(boolean)} for a call that cannot throw InterruptedException, done while {@code what}; its pool
     * wait is waited again after an interrupt if {@code uninterruptibly} (a single try, a renewal).
     */
    private void ensureTable(String what, boolean uninterruptibly) {
        try {
            ensureTable(uninterruptibly);
        } catch (WaitInterrupted e) {
            throw e.unchecked(what);
        }
    }

    /**
     * Creates the permit table on first use if it is missing (a store that never uses semaphores needs no DDL); an
     * interrupt while another store of this JVM creates it raises {@link WaitInterrupted}.
     */
    private void ensureTable(boolean uninterruptibly) {
        if (tableReady.get()) {
            return;
        }
        try {
            backend.withConnection(uninterruptibly, "creating the permit table " + table, installer::ensureTable);
            tableReady.set(true);
        } catch (JdbcBackend.ContentionException concurrentlyCreated) {
            // another client created it at the same moment (PostgreSQL reports a duplicate type): it exists now
        }
        backend.permitTableInUse(); // it exists either way: the sweep covers it from now on
    }

    private static String owner() {
        String owner = OwnerTokens.holderDescription();
        return owner.length() <= OWNER_LENGTH ? owner : owner.substring(0, OWNER_LENGTH);
    }

    private static long micros(Duration d) {
        long nanos = d.toNanos();
        return nanos / 1000 + (nanos % 1000 == 0 ? 0 : 1);
    }
}
