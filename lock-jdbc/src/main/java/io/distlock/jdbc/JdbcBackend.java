package io.distlock.jdbc;

import io.distlock.Arguments;
import com.zaxxer.hikari.HikariDataSource;
import io.distlock.LockAdmin;
import io.distlock.LockException;
import io.distlock.StoreUnavailableException;
import io.distlock.spi.Backoff;
import io.distlock.spi.Grant;
import io.distlock.spi.HandOvers;
import io.distlock.spi.OwnerTokens;
import io.distlock.spi.PermitBackend;
import io.distlock.spi.PollingLockBackend;
import io.distlock.spi.ReleaseSignals;
import io.distlock.spi.Renewal;
import io.distlock.spi.Terms;
import io.distlock.spi.Wait;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The SQL store's operations: one row per lock name, taken by the dialect's single-statement conditional upsert,
 * released and renewed by updates conditioned on the owner token, every time compared with the database's clock.
 * Each statement borrows its own pooled connection in autocommit, so locking never joins (or is rolled back with)
 * a transaction the caller has open on another connection.
 */
final class JdbcBackend extends PollingLockBackend implements HandOvers, PermitBackend {

    /** Lock names up to this many characters fit the table's {@code VARCHAR(255)} key on every dialect. */
    static final int MAX_NAME_LENGTH = 255;
    /** The SQL store's terms: leases end by time. */
    private static final Terms TERMS = Terms.timed(MAX_NAME_LENGTH);
    private static final int OWNER_LENGTH = 255;
    private static final int RELEASE_TRIES = 3;
    private static final System.Logger LOG = System.getLogger(JdbcBackend.class.getName());

    private final HikariDataSource pool;
    private final SqlDialect dialect;
    private final SqlFailures failures;
    private final ReleaseSignals signals;
    private final RemoteWakeups remote;
    private final long pollMinNanos;
    private final long pollMaxNanos;
    private final String store;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final JdbcLockAdmin admin;
    private final AbandonedAcquisitions abandoned;
    private final long socketTimeoutSeconds;
    private final JdbcPermits permits;
    private final RowSweeper sweeper;
    /** Tells {@link SharedSignals} this store no longer uses its table's signals. */
    private final Runnable signalsClosed;

    JdbcBackend(HikariDataSource pool, SqlDialect dialect, SharedSignals.Table signals, RemoteWakeups remote,
            long pollMinMillis, long pollMaxMillis, long socketTimeoutMillis, String redactedUri,
            Runnable signalsClosed) {
        this.pool = pool;
        this.signalsClosed = signalsClosed;
        this.dialect = dialect;
        this.signals = signals.locks();
        this.remote = remote;
        this.pollMinNanos = TimeUnit.MILLISECONDS.toNanos(pollMinMillis);
        this.pollMaxNanos = TimeUnit.MILLISECONDS.toNanos(pollMaxMillis);
        this.socketTimeoutSeconds = Math.max(1, socketTimeoutMillis / 1000);
        this.store = redactedUri;
        this.failures = new SqlFailures(redactedUri);
        this.admin = new JdbcLockAdmin(this, dialect);
        this.abandoned = new AbandonedAcquisitions(this::freeAbandoned, redactedUri);
        this.permits = new JdbcPermits(this, dialect, signals.permits(), remote, redactedUri, abandoned,
                socketTimeoutMillis);
        this.sweeper = new RowSweeper(this, dialect, redactedUri);
    }

    /** Sweeps the rows of unused names now, as the background tick does; answers how many names' rows went. */
    int sweepNow() {
        return sweeper.sweepOnce();
    }

    /** A lock or permit of {@code leaseTime} was granted {@code fence}: names used once get swept after it. */
    void granted(Duration leaseTime, long fence) {
        sweeper.granted(leaseTime, fence);
    }

    /** This store uses semaphores, so their table exists: the sweep of unused names covers it from now on. */
    void permitTableInUse() {
        sweeper.permitTableInUse();
    }

    @Override
    public Terms terms() {
        return TERMS;
    }

    @Override
    public ReleaseSignals signals() {
        return signals;
    }

    @Override
    protected Attempt attempt(String name, Duration leaseTime) {
        return attempt(name, leaseTime, -1); // a single try: always sent
    }

    @Override
    protected Attempt waitingAttempt(String name, Duration leaseTime, int failed) {
        return attempt(name, leaseTime, failed);
    }

    @Override
    protected void waitBegins(String name) {
        remote.waitBegins(name);
    }

    @Override
    protected void waitEnds(String name) {
        remote.waitEnds(name);
    }

    /** {@code d} in nanoseconds, Long.MAX_VALUE if it does not fit. */
    private static long nanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /** An attempt of a single try ({@code failed} -1) or of a waiting acquire after {@code failed} failed ones. */
    private Attempt attempt(String name, Duration leaseTime, int failed) {
        dialect.requireStorable(name);
        boolean waiting = failed >= 0; // a waiting loop, not a single try, is attempting
        if (waiting) {
            long next = remote.queued(name, failed == 0);
            if (next >= 0) {
                // queued for its turn: woken when it comes, and let through when its safety poll is due
                return Attempt.held(next);
            }
        }
        String[] token = {OwnerTokens.newToken()};
        String owner = owner();
        long fence;
        boolean[] sent = {false};
        try {
            // a single try ignores the interrupt, as Lock.tryLock() does: its pool wait is waited again (S104)
            SqlWork<Long> statement = c -> {
                sent[0] = true;
                return dialect.acquire(c, name, token[0], owner, micros(leaseTime));
            };
            Long inTurn = waiting ? attemptInTurn(name, leaseTime, statement, token, sent) : null;
            fence = inTurn != null ? inTurn
                    : withConnection(!waiting, "acquiring " + Arguments.quoted(name), statement);
        } catch (ContentionException e) {
            return Attempt.held(-1); // another client's statement got in the way: the next attempt decides
        } catch (StoreUnavailableException e) {
            if (sent[0]) {
                // the database may have committed the acquisition and lost only its answer: free our token's row
                abandoned.abandon(name, token[0], leaseTime);
            }
            if (waiting && Thread.currentThread().isInterrupted()) {
                // the driver or the pool gave up because this thread was interrupted, not because the database
                // is down: report "not granted" and let the waiting loop raise InterruptedException; a single try
                // ignores the interrupt, so its failure (no connection came, S103) is the answer (DEFECTS S105)
                return Attempt.held(0);
            }
            throw e;
        } catch (LockException e) {
            if (WaitInterrupted.raised(e)) {
                return Attempt.held(0); // interrupted waiting for a pooled connection: the waiting loop raises it
            }
            throw e;
        }
        if (fence > 0) {
            sweeper.granted(leaseTime, fence);
            remote.granted(name, nanos(leaseTime)); // a single try's grant too: the store holds the lock
            return Attempt.granted(new Grant(name, token[0], fence, null));
        }
        if (waiting) {
            remote.waiting(name); // a waiting loop (not a single try) found it held: ask other processes to tell
            return Attempt.held(remote.headDelayNanos(name));
        }
        return Attempt.held(-1);
    }

    /**
     * The attempt of a waiter at the head of its turn's queue, on the turn's connection ({@link
     * RemoteWakeups#attemptOnOwnConnection}), or null if it has none. That connection is never checked before use as
     * the pool's are: if it broke (a {@code KILL}, the server's {@code wait_timeout}, a proxy's idle cut; not a
     * timeout, after which the statement may still run and the database is slow for a pooled connection too) the
     * attempt is not the caller's failure: its token's row is freed in the background (the answer may be all that
     * was lost) and null sends the attempt again on a pooled connection under a new token ({@code token[0]}).
     */
    private Long attemptInTurn(String name, Duration leaseTime, SqlWork<Long> statement, String[] token,
            boolean[] sent) {
        try {
            return onOwnConnection("acquiring " + Arguments.quoted(name),
                    () -> remote.attemptOnOwnConnection(name, statement));
        } catch (StoreUnavailableException e) {
            if (!(e.getCause() instanceof SQLException sql) || SqlFailures.isTimeout(sql)) {
                throw e;
            }
            if (sent[0]) {
                abandoned.abandon(name, token[0], leaseTime);
            }
            LOG.log(System.Logger.Level.DEBUG, "the turn connection of {0} in store {1} broke; attempting on a"
                    + " pooled connection: {2}", Arguments.quoted(name), store, sql.toString());
            token[0] = OwnerTokens.newToken();
            sent[0] = false;
            return null;
        }
    }

    /**
     * Backs off exponentially from {@code distlock.pollMinMillis} (2 ms) to {@code distlock.pollMaxMillis} with
     * jitter (half to all of the step),
     * so many waiting clients neither hammer the database nor wake in lockstep. Local releases wake waiters at once
     * through {@link #signals()}, releases in other processes through {@link RemoteWakeups} where the database has
     * them (PostgreSQL's notices, MariaDB's turns); polling covers the rest and expiries.
     */
    @Override
    protected long pollDelayNanos(int failures, long holderTtlNanos) {
        return notPastHolderExpiry(Backoff.jittered(Backoff.exponential(pollMinNanos, pollMaxNanos, failures)),
                holderTtlNanos);
    }

    @Override
    public boolean release(Grant grant) {
        String what = "releasing " + Arguments.quoted(grant.name());
        try {
            for (int attempt = 1; ; attempt++) {
                try {
                    Boolean own = onOwnConnection(what, () -> remote.releaseOnOwnConnection(grant.name(),
                            grant.ownerToken(), dialect, work -> withConnectionUninterruptibly(what, work)));
                    if (own != null) {
                        return own;
                    }
                    return withConnectionUninterruptibly(what,
                            c -> remote.release(c, dialect, grant.name(), grant.ownerToken()));
                } catch (ContentionException e) {
                    if (attempt == RELEASE_TRIES) {
                        throw failures.translate(e.sql, what + " (kept colliding)");
                    }
                }
            }
        } finally {
            signals.signal(grant.name());
            remote.released(grant.name());
        }
    }

    /**
     * One conditional {@code UPDATE} of the row ({@link SqlDialect#handOver}); nobody is woken, the row is never
     * free. A statement sent whose answer was lost may have committed: the new token's row is freed in the
     * background, as after an acquire. The releasing holder's row is freed in the background too (it was released;
     * the core hands the waiter only the local gate and raises the failure), so a hand-over that could not be
     * confirmed leaves the row neither to a waiter that never got the grant nor to a holder that let it go. A row
     * another transaction keeps locked past the server's lock wait bound is such a failure, not a collision to retry.
     */
    @Override
    public Grant handOver(Grant from, Duration leaseTime, Thread receiver) {
        String name = from.name();
        String token = OwnerTokens.newToken();
        String owner = owner(receiver);
        boolean[] sent = {false};
        try {
            for (int attempt = 1; ; attempt++) {
                try {
                    // a release: a pool wait an interrupt ended is waited again (DEFECTS S102)
                    long fence = withConnectionUninterruptibly("handing over " + Arguments.quoted(name), c -> {
                        sent[0] = true;
                        return dialect.handOver(c, name, from.ownerToken(), token, owner, micros(leaseTime));
                    });
                    if (fence == 0) {
                        return null;
                    }
                    sweeper.granted(leaseTime, fence);
                    remote.granted(name, nanos(leaseTime));
                    return new Grant(name, token, fence, null);
                } catch (ContentionException e) {
                    if (SqlFailures.isLockWaitTimeout(e.sql)) {
                        throw new StoreUnavailableException("handing over " + Arguments.quoted(name) + " in store "
                                + store
                                + " gave up: its row stayed locked by another transaction", e.sql);
                    }
                    if (attempt == RELEASE_TRIES) {
                        throw failures.translate(e.sql, "handing over " + Arguments.quoted(name) + " (kept colliding)");
                    }
                }
            }
        } catch (StoreUnavailableException e) {
            if (sent[0]) {
                abandoned.abandon(name, token, leaseTime);
            }
            abandoned.abandon(name, from.ownerToken(), leaseTime);
            throw e;
        }
    }

    /** Frees the row of {@code name} if {@code token} still holds it, waking local waiters when it did. */
    private boolean freeAbandoned(String name, String token) {
        boolean freed = withConnection("freeing " + Arguments.quoted(name) + " after a lost acquire answer", c -> {
            try (PreparedStatement ps = c.prepareStatement(dialect.releaseSql())) {
                ps.setString(1, name);
                ps.setString(2, token);
                return ps.executeUpdate() == 1;
            }
        });
        if (freed) {
            signals.signal(name);
            remote.released(name);
        }
        return freed;
    }

    @Override
    public Set<Grant> renew(List<Renewal> renewals) {
        // group by lease time (usually one group), then chunk, so any number of leases costs a few round trips
        Map<Long, List<Grant>> byLease = new TreeMap<>();
        for (Renewal r : renewals) {
            byLease.computeIfAbsent(micros(r.leaseTime()), k -> new ArrayList<>()).add(r.grant());
        }
        Set<Grant> lost = new HashSet<>();
        for (Map.Entry<Long, List<Grant>> group : byLease.entrySet()) {
            List<Grant> grants = group.getValue();
            for (int from = 0; from < grants.size(); from += SqlDialect.CHUNK) {
                List<Grant> chunk = grants.subList(from, Math.min(grants.size(), from + SqlDialect.CHUNK));
                lost.addAll(renewChunk(chunk, group.getKey()));
            }
        }
        return lost;
    }

    /**
     * Renews one chunk. A row locked by another transaction (an operator's {@code SELECT ... FOR UPDATE}) blocks
     * the whole chunk's statement, so each statement is bounded ({@link #renewTimeoutSeconds}); when the chunk times
     * out its grants are renewed one by one, so only the stuck row waits. A grant whose own renewal times out while
     * others of the chunk succeed cannot be confirmed and is reported lost; if none succeeds the database itself is
     * slow, and the whole chunk is reported unavailable (the core retries until each lease's local deadline).
     */
    private Set<Grant> renewChunk(List<Grant> chunk, long leaseMicros) {
        int timeoutSeconds = renewTimeoutSeconds(leaseMicros);
        try {
            return renewTogether(chunk, leaseMicros, timeoutSeconds);
        } catch (StoreUnavailableException e) {
            if (chunk.size() == 1 || !isTimeout(e)) {
                throw e;
            }
            List<Grant> shuffled = new ArrayList<>(chunk);
            java.util.Collections.shuffle(shuffled);
            Set<Grant> lost = new HashSet<>();
            List<Grant> stuck = new ArrayList<>();
            boolean answered = false;
            for (Grant g : shuffled) {
                try {
                    lost.addAll(renewTogether(List.of(g), leaseMicros, timeoutSeconds));
                    answered = true;
                } catch (StoreUnavailableException single) {
                    if (!isTimeout(single) || (!answered && !stuck.isEmpty())) {
                        throw single; // down, or slow for every row: the core retries all of them
                    }
                    stuck.add(g);
                }
            }
            if (!answered) {
                throw e;
            }
            for (Grant g : stuck) {
                LOG.log(System.Logger.Level.WARNING, "renewal of {0} in store {1} timed out after {2} s: its row"
                        + " is locked by another transaction; the lease is reported lost", Arguments.quoted(g.name()),
                        store,
                        timeoutSeconds);
            }
            lost.addAll(stuck);
            return lost;
        }
    }

    /**
     * The bound on each renewal statement: a sixth of the lease (so a timed-out chunk and the one-by-one pass after
     * it both fit in the third of the lease left after a renewal falls due), at least 1 s (the JDBC granularity),
     * at most the socket timeout.
     */
    private int renewTimeoutSeconds(long leaseMicros) {
        long sixth = leaseMicros / 6 / 1_000_000;
        return (int) Math.max(1, Math.min(sixth, socketTimeoutSeconds));
    }

    private static boolean isTimeout(StoreUnavailableException e) {
        return e.getCause() instanceof SQLException sql && SqlFailures.isTimeout(sql);
    }

    private Set<Grant> renewTogether(List<Grant> chunk, long leaseMicros, int timeoutSeconds) {
        // one token per name in a statement: the answer is per name, so a second grant of a name (the old grant of a
        // name handed over or granted again, still in this batch) goes into a statement of its own, else the one
        // answer would stand for both, renewing a stale grant or losing a live one
        Map<String, String> tokens = new LinkedHashMap<>();
        List<Grant> these = new ArrayList<>(chunk.size());
        List<Grant> again = new ArrayList<>();
        for (Grant g : chunk) {
            if (tokens.putIfAbsent(g.name(), g.ownerToken()) == null) {
                these.add(g);
            } else {
                again.add(g);
            }
        }
        Set<String> renewed;
        try {
            // run without the caller's flag for extend and releaseAfter: a pool wait an interrupt ended is waited
            // again, or a releaseAfter left its lock unrenewed, held past minHeld (DEFECTS S102)
            renewed = withConnectionUninterruptibly("renewing " + these.size() + " lease(s)",
                    c -> dialect.renew(c, tokens, leaseMicros, timeoutSeconds));
        } catch (ContentionException e) {
            throw new StoreUnavailableException("renewal in store " + store
                    + " collided with another transaction; will retry", e.sql);
        }
        Set<Grant> lost = new HashSet<>();
        long leaseNanos = leaseMicros > Long.MAX_VALUE / 1000 ? Long.MAX_VALUE : leaseMicros * 1000;
        for (Grant g : these) {
            if (!renewed.contains(g.name())) {
                lost.add(g);
                remote.released(g.name()); // whatever it kept for this holder goes with the lease
            } else {
                remote.granted(g.name(), leaseNanos);
            }
        }
        if (!again.isEmpty()) {
            lost.addAll(renewTogether(again, leaseMicros, timeoutSeconds));
        }
        return lost;
    }

    // ---- semaphores: JdbcPermits, in a table of their own -----------------------------------------------------

    /** The semaphore side of this store (for its admin view). */
    JdbcPermits permitTable() {
        return permits;
    }

    @Override
    public int maxPermits() {
        return JdbcPermits.MAX_PERMITS;
    }

    @Override
    public Grant acquirePermit(String name, int limit, Duration leaseTime, Wait wait)
            throws InterruptedException {
        dialect.requireStorable(name);
        return permits.acquire(name, limit, leaseTime, wait);
    }

    @Override
    public boolean releasePermit(Grant grant) {
        return permits.release(grant);
    }

    @Override
    public Set<Grant> renewPermits(List<Renewal> renewals) {
        return permits.renew(renewals);
    }

    @Override
    public int heldPermits(String name) {
        return permits.held(name);
    }

    @Override
    public PermitBackend permits() {
        return this;
    }

    /** Wakes the lock waiters and the permit waiters, which wait on signals of their own. */
    @Override
    public void closing() {
        super.closing();
        permits.wakeAll();
    }

    @Override
    public LockAdmin admin() {
        return admin;
    }

    /** Runs {@code work} on a pooled connection, translating SQL errors; contention comes back as itself. */
    <T> T withConnection(String what, SqlWork<T> work) {
        if (closed.get()) {
            throw new IllegalStateException("store " + store + " is closed");
        }
        Connection c = null;
        try {
            c = pool.getConnection();
            return work.run(c);
        } catch (SQLException e) {
            if (c == null && e.getCause() instanceof InterruptedException interrupted) {
                // the pool gave up waiting for a connection because this thread was interrupted (HikariCP sets the
                // flag again): an interrupt, neither an SQL error nor an outage of the database (DEFECTS S86)
                throw new WaitInterrupted("store " + store + " was waiting for a connection of its pool", interrupted)
                        .unchecked(what);
            }
            if (c != null && SqlFailures.isUnavailable(e)) {
                // HikariCP evicts only connections whose errors it knows as fatal (SQLState 08...); H2's
                // "database closed" is not one of them, so a broken connection is evicted here, not reused
                pool.evictConnection(c);
                c = null;
            }
            if (closed.get()) {
                throw new IllegalStateException("store " + store + " was closed while " + what, e);
            }
            if (dialect.isContention(e)) {
                throw new ContentionException(e);
            }
            throw failures.translate(e, what);
        } finally {
            closeQuietly(c);
        }
    }

    /**
     * Runs {@code work}, a statement {@link RemoteWakeups} sends on a connection of the store's own (outside the
     * pool), translating SQL errors as {@link #withConnection} does; contention comes back as itself. Null: there was
     * no such connection.
     */
    private <T> T onOwnConnection(String what, OwnConnectionWork<T> work) {
        if (closed.get()) {
            throw new IllegalStateException("store " + store + " is closed");
        }
        try {
            return work.run();
        } catch (SQLException e) {
            if (closed.get()) {
                throw new IllegalStateException("store " + store + " was closed while " + what, e);
            }
            if (dialect.isContention(e)) {
                throw new ContentionException(e);
            }
            throw failures.translate(e, what);
        }
    }

    /**
     * {@link #withConnection} for a call the core runs without the caller's interrupt flag, which must not fail
     * because its thread was interrupted (a release, a hand-over, a renewal; a lock left held by nobody alive until
     * its lease's end otherwise): a wait for a pooled connection that an interrupt ended is waited again, and the flag
     * set again afterwards, as {@link java.util.concurrent.locks.Lock#lock()} does (DEFECTS S87, S102). The waits
     * stop once the pool's connect timeout has passed since the first interrupted one, so interrupts that keep coming
     * end the call within about two connect timeouts, as an outage: no connection came (S103).
     */
    <T> T withConnectionUninterruptibly(String what, SqlWork<T> work) {
        try {
            return withConnection(what, work);
        } catch (LockException e) {
            if (!WaitInterrupted.raised(e)) {
                throw e;
            }
            return againAfterInterruptedPoolWait(what, work, e);
        }
    }

    /** {@link #withConnectionUninterruptibly} if {@code uninterruptibly}, else {@link #withConnection}. */
    <T> T withConnection(boolean uninterruptibly, String what, SqlWork<T> work) {
        return uninterruptibly ? withConnectionUninterruptibly(what, work) : withConnection(what, work);
    }

    /** The waits of {@link #withConnectionUninterruptibly} after the first, {@code first}, was interrupted. */
    private <T> T againAfterInterruptedPoolWait(String what, SqlWork<T> work, LockException first) {
        long boundMillis = pool.getConnectionTimeout();
        long boundNanos = TimeUnit.MILLISECONDS.toNanos(boundMillis);
        long start = System.nanoTime();
        int interrupted = 1;
        try {
            while (System.nanoTime() - start < boundNanos) {
                Thread.interrupted(); // clear it for the next wait; set again at the end
                try {
                    return withConnection(what, work);
                } catch (LockException e) {
                    if (!WaitInterrupted.raised(e)) {
                        throw e;
                    }
                    interrupted++;
                }
            }
            throw new StoreUnavailableException("store " + store + " gave up " + what + ": no connection of its pool"
                    + " came within its wait of " + boundMillis + " ms (" + interrupted
                    + " waits in a row were interrupted)", first);
        } finally {
            Thread.currentThread().interrupt(); // the first wait took the flag
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                // the pool has already discarded a connection that fails to close: nothing left to do
            }
        }
    }

    private static String owner() {
        return owner(Thread.currentThread());
    }

    /** The holder description of {@code holder}, cut to the owner column's length. */
    private static String owner(Thread holder) {
        String owner = OwnerTokens.holderDescription(holder);
        return owner.length() <= OWNER_LENGTH ? owner : owner.substring(0, OWNER_LENGTH);
    }

    /** A lease time in whole microseconds, rounded up. */
    private static long micros(Duration d) {
        long nanos = d.toNanos();
        return nanos / 1000 + (nanos % 1000 == 0 ? 0 : 1);
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            abandoned.close();
            sweeper.close();
            remote.close();
            pool.close();
            signalsClosed.run();
        }
    }

    /** A unit of SQL work on one connection. */
    @FunctionalInterface
    interface SqlWork<T> {
        T run(Connection c) throws SQLException;
    }

    /** A statement on a connection of {@link RemoteWakeups}' own; null if it has none. */
    @FunctionalInterface
    private interface OwnConnectionWork<T> {
        T run() throws SQLException;
    }

    /** Another transaction got in the way of a statement; the caller decides whether to retry. */
    static final class ContentionException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient SQLException sql;

        ContentionException(SQLException sql) {
            super(sql.getMessage(), sql, false, false);
            this.sql = sql;
        }
    }
}
