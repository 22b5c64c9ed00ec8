package io.distlock.jdbc;

import io.distlock.Arguments;
import io.distlock.spi.Backoff;
import io.distlock.spi.ReleaseSignals;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.HexFormat;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * Turns across processes on MariaDB, where no message reaches another client: the stores that wait for a name queue
 * server-side in {@code GET_LOCK} on a turn lock named after it, each on a connection of its own outside the pool,
 * and only the store at the head of the queue tries the lock; the store that took the lock through its turn keeps
 * the turn lock while it holds the lock and frees it in its release statement itself, sent on the turn's connection,
 * which wakes the next store while the release commits (as Curator's predecessor watch does on ZooKeeper), and
 * queues again if it asks for the name again at once, so it
 * does not take the lock back before the store whose turn it is. A store that releases a lock it took without a turn
 * while another store holds the turn learns so from its release statement (same round trip) and queues too.
 *
 * <p>The turn lock is advisory: the acquire statement still decides every grant. A queued waiter still tries the lock
 * every {@code pollMaxMillis}, or every twice its last wait for a turn if that is longer (at most one wait in the
 * queue, 5 s: a long queue's waiters then send nothing between their turns while turns come round), so a
 * lost turn (a turn holder that hangs, a holder that took the lock without a turn) costs one such poll, never a hang;
 * a store that took the lock out of turn lets the head store go first on its next acquire, once per head: a head
 * that let that pass without taking the lock is not waited for again until a turn comes. A store that closes or
 * dies loses its connections and with them its turn locks,
 * which the server grants to the next store at once. An uncontended acquire and release never touch a turn lock, and
 * cost no extra round trip. Turn locks live in the server's memory, never in a table, so names used once leave nothing
 * behind. Used on MariaDB servers only (not tried on MySQL, where stores poll as before).
 */
final class MariaDbTurns implements RemoteWakeups {

    private static final System.Logger LOG = System.getLogger(MariaDbTurns.class.getName());
    /** At most this many names queue at once per store (each holds a connection); others wait by polling. */
    static final int MAX_TURNS = 8;
    /**
     * The longest wait in the queue in one statement: the waiter polls meanwhile (every pollMaxMillis), so this only
     * bounds how long a worker whose waiter left stays queued.
     */
    private static final long QUEUE_WAIT_MILLIS = 5000;
    /**
     * How long a store that passed its turn on waits for its own next attempt at the name before it stops queueing
     * (an attempt that comes later goes straight to the database): a thread that takes the lock again right after
     * its release needs a moment on a busy machine.
     */
    private static final long GRACE_MILLIS = 10;
    /** At most this many names are remembered as released while another store waited for its turn. */
    private static final int MAX_CONTENDED = 10_000;
    /**
     * A queued store's safety poll waits at least this many times as long as its last wait for its turn took
     * ({@link Turn#pollEvery}).
     */
    private static final int POLL_SLACK = 2;
    /** How often a worker checks that its store still wants a turn it holds (a waiter may have given up). */
    private static final long INTEREST_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final DataSource direct;
    private final ReleaseSignals signals;
    private final String table;
    private final double queueSeconds;
    /**
     * {@link #queueSeconds} in nanoseconds: the longest a queued store's safety poll waits ({@link Turn#pollEvery}),
     * what a turn holder that hangs costs it; its worker sends the queue's statement again as often.
     */
    private final long queueNanos;
    private final long pollMinNanos;
    private final long pollMaxNanos;
    private final long graceNanos;
    private final String store;
    private final ConcurrentHashMap<String, Turn> turns = new ConcurrentHashMap<>();
    /** Names this store released while another store held their turn lock, with when: see {@link #release}. */
    private final ConcurrentHashMap<String, Long> contendedAt = new ConcurrentHashMap<>();
    /**
     * This store's acquires that wait, per name: its release signals may be shared with other stores of the same
     * URL in this JVM, whose waiters must not keep this store's turn.
     */
    private final ConcurrentHashMap<String, Integer> waiters = new ConcurrentHashMap<>();
    private final ArrayDeque<Connection> idle = new ArrayDeque<>();
    private volatile boolean closed;
    /** Set once a connection shows a server other than MariaDB (turns not tried on MySQL): polling only. */
    private volatile boolean unsupported;
    /**
     * {@code DATABASE()} of this store's connections as the bytes the server hashes ({@link #databaseOf}), read once
     * after its first release (one extra request in the store's life), or null until then; all connections of a
     * store open the same database.
     */
    private volatile byte[] database;
    /** {@link #database} was read (it may be null: no database selected, and the server names the turn lock). */
    private volatile boolean databaseRead;

    /**
     * Turns for the lock table {@code table}; {@code direct} opens the workers' connections (outside the pool). A
     * queued waiter polls every {@code pollMaxMillis} or more ({@link Turn#pollEvery}); the head polls from
     * {@code pollMinMillis}; one wait in the
     * queue lasts at most 5 s and half the socket timeout.
     */
    MariaDbTurns(DataSource direct, String table, ReleaseSignals signals, long pollMinMillis,
            long pollMaxMillis, long socketTimeoutMillis, String store) {
        this.direct = direct;
        this.signals = signals;
        this.table = table;
        this.queueSeconds = Math.min(QUEUE_WAIT_MILLIS, socketTimeoutMillis / 2) / 1000.0;
        this.queueNanos = TimeUnit.MILLISECONDS.toNanos(Math.min(QUEUE_WAIT_MILLIS, socketTimeoutMillis / 2));
        this.pollMinNanos = TimeUnit.MILLISECONDS.toNanos(pollMinMillis);
        this.pollMaxNanos = TimeUnit.MILLISECONDS.toNanos(pollMaxMillis);
        this.graceNanos = Math.max(pollMinNanos, TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS));
        this.store = store;
    }

    /**
     * The server-side lock of a name's turns, as an SQL expression of one parameter ({@link #turnKey}): the same for
     * every client of the database, table and name however its URL is spelled, short (MySQL takes 64 characters)
     * and free of the name's text. Hashed as bytes: a name's characters never meet the database name's collation.
     */
    static final String TURN_LOCK = "CONCAT('distlock:', LEFT(SHA2(CONCAT(CAST(DATABASE() AS BINARY), ?), 256), 40))";

    /** The parameter of {@link #TURN_LOCK} for {@code name}: hex digits of a SHA-256 of the table and the name. */
    String turnKey(String name) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(table.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            return HexFormat.of().formatHex(sha.digest(name.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /**
     * The value of {@link #TURN_LOCK} for {@code name} on database {@code db}, computed here: the release of a lock
     * nobody waits for then sends the turn lock's name, and the server only looks it up ({@code SHA2} over
     * {@code CONCAT(CAST(DATABASE() AS BINARY), ?)} cost it about 30 us per release, a tenth of the gap to the raw
     * upsert and update). {@code db} is the name's bytes as {@code CAST(DATABASE() AS BINARY)} gives them, the
     * server's UTF-8 ({@link #databaseOf}); {@code SHA2} answers lowercase hex, as {@link HexFormat#of()}.
     */
    static String turnLock(byte[] db, String key) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(db);
            byte[] digest = sha.digest(key.getBytes(StandardCharsets.US_ASCII));
            return "distlock:" + HexFormat.of().formatHex(digest).substring(0, 40);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /**
     * Reads {@link #database} on {@code c}, once per store (its later releases name the turn lock themselves), after
     * a release statement: the release is done whatever this read does, so its failure (a connection that broke just
     * after the release answered) is no failure of the release: the next release reads again.
     */
    private void readDatabase(Connection c) {
        try {
            database = databaseOf(c);
            databaseRead = true;
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.DEBUG, "store {0} could not read its database after a release, and reads it"
                    + " after its next: {1}", store, e.toString());
        }
    }

    /**
     * {@code DATABASE()} of {@code c} as the bytes {@link #TURN_LOCK} hashes, or null if none is selected: read as
     * bytes, not text, since a connection may read results in a character set that cannot spell the name
     * (Connector/J's {@code characterSetResults=ISO-8859-1} reads a Cyrillic name back as question marks).
     */
    static byte[] databaseOf(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT CAST(DATABASE() AS BINARY)")) {
            return rs.next() ? rs.getBytes(1) : null;
        }
    }

    @Override
    public void waiting(String name) {
        if (closed || unsupported) {
            return;
        }
        Turn t = turns.get(name);
        if (t != null) {
            if (t.wanted()) {
                return;
            }
            turns.remove(name, t); // done: a new turn replaces it
        }
        if (turns.size() >= MAX_TURNS) {
            return; // this store waits for many names at once: the others poll
        }
        Turn made = new Turn(name);
        if (turns.putIfAbsent(name, made) == null) {
            Thread worker = new Thread(() -> made.run(), "distlock-mariadb-turn");
            worker.setDaemon(true);
            made.worker = worker;
            worker.start();
        } else {
            Turn other = turns.get(name);
            if (other != null) {
                other.wanted();
            }
        }
    }

    @Override
    public long queued(String name, boolean first) {
        Turn t = turns.get(name);
        if (t != null) {
            return t.skipAttempt(first);
        }
        Long seen = contendedAt.remove(name);
        if (seen == null || System.nanoTime() - seen > pollMaxNanos) {
            return -1;
        }
        // this store released the name while another store held its turn: it queues behind it, not barging in
        waiting(name);
        return turns.containsKey(name) ? pollMaxNanos : -1;
    }

    @Override
    public void waitBegins(String name) {
        waiters.merge(name, 1, Integer::sum);
    }

    @Override
    public void waitEnds(String name) {
        waiters.computeIfPresent(name, (k, n) -> n == 1 ? null : n - 1);
    }

    /**
     * The release statement, which also reads (into the generated key, in the same round trip) whether a store holds
     * the name's turn lock: one that waits at the head of the queue while this store held the lock without a turn.
     * Then this store's next waiting acquire of the name, if it comes within a poll, queues instead of retaking the
     * lock before that store's next attempt; so does its next acquire if its own turn is queued behind that store's
     * (it took the lock out of turn: a safety poll, or a new acquire's first attempt).
     */
    @Override
    public boolean release(Connection c, SqlDialect dialect, String name, String token) throws SQLException {
        if (unsupported) {
            return RemoteWakeups.super.release(c, dialect, name, token);
        }
        boolean read = databaseRead;
        byte[] db = database;
        boolean named = read && db != null;
        try (PreparedStatement ps = c.prepareStatement(dialect.releaseSql()
                + " AND LAST_INSERT_ID(COALESCE(IS_USED_LOCK(" + (named ? "?" : TURN_LOCK) + "), 0) + 1) > 0",
                Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, name);
            ps.setString(2, token);
            ps.setString(3, named ? turnLock(db, turnKey(name)) : turnKey(name));
            int rows = ps.executeUpdate();
            if (!read) {
                readDatabase(c);
            }
            if (rows != 1) {
                return false;
            }
            long used = 0;
            try (ResultSet keys = ps.getGeneratedKeys()) {
                if (keys.next()) {
                    used = keys.getLong(1);
                }
            }
            Turn mine = used > 1 ? turns.get(name) : null;
            if (used > 1 && (mine == null || !mine.releasedOutOfTurn(used - 1))) {
                long now = System.nanoTime();
                if (contendedAt.size() >= MAX_CONTENDED) {
                    contendedAt.values().removeIf(at -> now - at > pollMaxNanos);
                }
                if (contendedAt.size() < MAX_CONTENDED) {
                    contendedAt.put(name, now);
                }
            }
            return true;
        }
    }

    /**
     * The release of a lock this store holds through its turn ({@link #releaseInTurn}), on the turn's connection,
     * without a pooled connection: null if the store holds no turn of {@code name}. If the turn's connection broke,
     * the release is sent again through {@code onPool} ({@link #releaseAfterBrokenTurn}).
     */
    @Override
    public Boolean releaseOnOwnConnection(String name, String token, SqlDialect dialect,
            Function<JdbcBackend.SqlWork<Boolean>, Boolean> onPool) throws SQLException {
        if (unsupported) {
            return null;
        }
        Turn t = turns.get(name);
        Connection own = t == null ? null : t.lend(State.HOLDING);
        if (own == null) {
            return null;
        }
        try {
            return releaseInTurn(t, own, name, token);
        } catch (SQLException e) {
            if (!SqlFailures.isUnavailable(e) || SqlFailures.isTimeout(e)) {
                throw e; // a timeout: the statement may still run on the server, and a second one would wait for it
            }
            return onPool.apply(c -> releaseAfterBrokenTurn(e, c, dialect, name, token));
        }
    }

    /**
     * The attempt of this store's waiter whose turn came (the turn at the head of the queue), on the turn's
     * connection, which has just answered {@code GET_LOCK}: the pool would check its own connection first, idle while
     * the store waited in the queue. Null if the store is not at the head of the queue for {@code name} (or the
     * connection is busy); the attempt then borrows a pooled connection. The worker does not use the connection until
     * the attempt gives it back.
     */
    @Override
    public Long attemptOnOwnConnection(String name, JdbcBackend.SqlWork<Long> attempt) throws SQLException {
        if (unsupported) {
            return null;
        }
        Turn t = turns.get(name);
        Connection own = t == null ? null : t.lend(State.HEAD);
        if (own == null) {
            return null;
        }
        try {
            return attempt.run(own);
        } catch (SQLException e) {
            if (SqlFailures.isUnavailable(e)) {
                // broken (a KILL, wait_timeout, a proxy's cut) or its answer lost: never lent again, the turn ends
                t.connectionBroke();
            }
            throw e;
        } finally {
            t.lentBack(false);
        }
    }

    /**
     * The release of a lock this store holds through its turn, on the turn's own connection: the statement frees the
     * turn lock too ({@link #RELEASE_IN_TURN}), so the next store in the queue is woken by the release itself, while
     * it commits, not one round trip after it (the worker's {@code RELEASE_LOCK}). Its attempt then waits for the row
     * until the release commits and finds it free. A release that matched no row (the lease was lost) left the turn
     * lock alone: the worker frees it as before.
     */
    private boolean releaseInTurn(Turn t, Connection own, String name, String token) throws SQLException {
        boolean released = false;
        try (PreparedStatement ps = own.prepareStatement(String.format(RELEASE_IN_TURN, table))) {
            ps.setString(1, t.key);
            ps.setString(2, name);
            ps.setString(3, token);
            released = ps.executeUpdate() == 1;
            return released;
        } finally {
            t.lentBack(released);
        }
    }

    /**
     * The release in a turn failed with {@code e} because the turn's connection broke: it sits idle as long as the
     * lock is held (past the server's {@code wait_timeout}, a proxy's idle cut, an operator's {@code KILL}), and the
     * pool's checks before use never see it. The release is sent again on the pool's connection {@code c}: the row
     * freed there is the release (the first statement never committed, or the row would not match); a row no longer
     * ours leaves the outcome unknown, and {@code e} is thrown as before.
     */
    private static boolean releaseAfterBrokenTurn(SQLException e, Connection c, SqlDialect dialect, String name,
            String token) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(dialect.releaseSql())) {
            ps.setString(1, name);
            ps.setString(2, token);
            if (ps.executeUpdate() == 1) {
                return true;
            }
        } catch (SQLException again) {
            e.addSuppressed(again);
        }
        throw e;
    }

    /**
     * The release statement sent on a turn's connection, for the table ({@code %s}), parameters: the turn key, the
     * name, the token. As the dialect's release, but with {@code UTC_TIMESTAMP(3)} for {@code NOW(3)} (the same on a
     * turn's connection, whose clock {@link MySqlDialect#SESSION_CLOCK} set as the pool's are), and {@code RELEASE_LOCK}
     * of the turn lock evaluated in the assignments: only for the matched row (one row matched means the turn lock is free), while the statement holds
     * the row, before it commits.
     */
    static final String RELEASE_IN_TURN = "UPDATE %s SET owner_token = NULL, expires_at = NULL,"
            + " owner = NULL + RELEASE_LOCK(" + TURN_LOCK + ")"
            + " WHERE name = ? AND owner_token = ? AND expires_at > UTC_TIMESTAMP(3)";

    @Override
    public long headDelayNanos(String name) {
        Turn t = turns.get(name);
        return t == null ? -1 : t.headDelay();
    }

    @Override
    public void granted(String name, long leaseNanos) {
        Turn t = turns.get(name);
        if (t != null) {
            t.granted(leaseNanos);
        }
    }

    @Override
    public void released(String name) {
        Turn t = turns.get(name);
        if (t != null) {
            t.released();
        }
    }

    /** How many names this store queues for or holds a turn of: for tests. */
    int turns() {
        return turns.size();
    }

    /** What a turn is doing. */
    private enum State {
        /** Waiting in GET_LOCK. */
        QUEUED,
        /** Holding the turn lock; the local waiter tries the lock, polling from pollMin. */
        HEAD,
        /** Holding the turn lock and the lock. */
        HOLDING,
        /** The lock was released: the worker releases the turn lock, then queues again if wanted. */
        PASSING,
        /** The worker is done (or about to be). */
        DONE
    }

    /** One name's turn in this store, run by a worker thread on a connection of its own. */
    private final class Turn {
        private final String name;
        private final String key;
        private final ReentrantLock guard = new ReentrantLock();
        private final Condition changed = guard.newCondition();
        private State state = State.QUEUED;
        /** When the waiter last tried the lock in the database: while queued it still does every {@link #pollEvery}. */
        private long lastAttempt;
        /**
         * How long after its last attempt a queued waiter tries the lock again, the safety net of a lost turn:
         * {@code pollMaxMillis}, or {@value #POLL_SLACK} times as long as this store's last wait for its turn took if
         * that is longer, at most one wait in the queue ({@link #queueNanos}). A store in a queue of N waits about
         * N - 1 holds for its turn, so a poll every {@code pollMaxMillis} added requests per acquisition in proportion
         * to N times the hold time once that wait passed {@code pollMaxMillis} (issue #33's waiters curve, 20 ms holds,
         * the default 250 ms: 1.4 polls per acquisition with 16 stores, none with 4), while turns kept coming round.
         */
        private long pollEvery = pollMaxNanos;
        /** When this store began to wait for its current turn: that wait sets {@link #pollEvery} once it comes. */
        private long queuedAt;
        /**
         * This store released a lock it took while queued (out of turn), and another store held the turn: its next
         * acquire does not make its first attempt but waits in the queue (a poll from now), as a store that passed
         * its turn on does, instead of taking the lock back before the store whose turn it is.
         */
        private boolean releasedOutOfTurn;
        /**
         * The server's id of the connection holding the turn lock when this store last let it go first
         * ({@link #releasedOutOfTurn}), 0 if none since this store's last turn: a head that let a whole poll pass
         * without taking the lock (a hung or partitioned process keeps its turn lock until the server drops its
         * connection) is let go first once, not before each of this store's acquires (S85).
         */
        private long deferredTo;
        /** The local waiter asked for the turn again after it passed it on (or after a poll). */
        private boolean requeue;
        /** This store holds the lock (granted while queued or at the head). */
        private boolean holding;
        /** When the lease this store holds ends unless renewed (a lease lost or left to expire ends the turn). */
        private long holdUntil;
        /** Others wanted the name: a store queued ahead of us, or the lock was held when our turn came. */
        private boolean contended;
        private int headPolls;
        /** The connection is lent to this store's release statement ({@link #lend}): the worker does not use it. */
        private boolean lent;
        /** That release statement freed the turn lock: the worker does not send {@code RELEASE_LOCK}. */
        private boolean freed;
        /**
         * An attempt on the connection failed as an outage ({@link #connectionBroke}): the connection is not lent
         * again and the worker gives the turn up.
         */
        private boolean broken;
        volatile Thread worker;
        volatile Connection connection;

        Turn(String name) {
            this.name = name;
            this.key = turnKey(name);
            this.lastAttempt = System.nanoTime(); // the failed attempt that made this turn
            this.queuedAt = lastAttempt;
        }

        /**
         * This store released, on a pooled connection, a lock it held while the server's connection {@code head} held
         * the turn: true if this turn queues its next acquire ({@link #releasedOutOfTurn}) unless it already let that
         * head go first and took the lock again without a turn coming ({@link #deferredTo}), false if the turn is done.
         */
        boolean releasedOutOfTurn(long head) {
            guard.lock();
            try {
                if (state == State.DONE) {
                    return false;
                }
                if (state == State.QUEUED) {
                    releasedOutOfTurn |= head != deferredTo; // a deferral not yet made stays
                    deferredTo = head;
                }
                return true;
            } finally {
                guard.unlock();
            }
        }

        /** A waiter of this store found the lock held again; false if this turn is done (a new one is needed). */
        boolean wanted() {
            guard.lock();
            try {
                if (state == State.DONE) {
                    return false;
                }
                requeue = true;
                changed.signalAll();
                return true;
            } finally {
                guard.unlock();
            }
        }

        /** -1 to attempt, else the nanoseconds until the next attempt is due: see {@link #queued}. */
        long skipAttempt(boolean first) {
            guard.lock();
            try {
                long now = System.nanoTime();
                switch (state) {
                    case QUEUED:
                        if (first && releasedOutOfTurn) {
                            // it just had the lock out of turn: the store whose turn it is goes first
                            releasedOutOfTurn = false;
                            lastAttempt = now;
                            return pollEvery;
                        }
                        if (first || now - lastAttempt >= pollEvery) {
                            // an acquire's first attempt, or the poll that bounds what a lost turn costs
                            releasedOutOfTurn = false;
                            lastAttempt = now;
                            return -1;
                        }
                        return pollEvery - (now - lastAttempt);
                    case PASSING:
                        if (!contended) {
                            return -1;
                        }
                        // the turn was just passed on: the next store in the queue goes first, this one queues again
                        requeue = true;
                        lastAttempt = now; // it just had the lock: its polls count from now
                        changed.signalAll();
                        return pollEvery;
                    default:
                        lastAttempt = now;
                        return -1;
                }
            } finally {
                guard.unlock();
            }
        }

        /**
         * The turn's connection, lent while the turn is in state {@code in}: to the release of the lock this store
         * holds through this turn ({@link State#HOLDING}), or to the attempt of the waiter whose turn came
         * ({@link State#HEAD}); null if the turn is not in that state or the connection is busy. The worker waits in
         * {@link #holdTurn} meanwhile, and does not use it until {@link #lentBack}.
         */
        Connection lend(State in) {
            guard.lock();
            try {
                Connection c = connection;
                if (state != in || lent || broken || closed || c == null) {
                    return null;
                }
                lent = true;
                return c;
            } finally {
                guard.unlock();
            }
        }

        /** The statement that borrowed the connection is done; {@code freedTurn}: it freed the turn lock. */
        void lentBack(boolean freedTurn) {
            guard.lock();
            try {
                lent = false;
                freed |= freedTurn;
                changed.signalAll();
            } finally {
                guard.unlock();
            }
        }

        /** An attempt on the turn's connection failed as an outage: see {@link #broken}. */
        void connectionBroke() {
            guard.lock();
            try {
                broken = true;
                changed.signalAll();
            } finally {
                guard.unlock();
            }
        }

        /** Whether a release statement freed the turn lock since the last call. */
        private boolean takeFreed() {
            guard.lock();
            try {
                boolean was = freed;
                freed = false;
                return was;
            } finally {
                guard.unlock();
            }
        }

        long headDelay() {
            guard.lock();
            try {
                if (state != State.HEAD) {
                    return -1;
                }
                contended = true;
                return Backoff.jittered(Backoff.exponential(pollMinNanos, pollMaxNanos, headPolls++));
            } finally {
                guard.unlock();
            }
        }

        void granted(long leaseNanos) {
            guard.lock();
            try {
                holding = true;
                holdUntil = System.nanoTime() + Math.min(leaseNanos, Long.MAX_VALUE / 4);
                if (state == State.HEAD) {
                    state = State.HOLDING;
                }
                changed.signalAll(); // the worker waits until the new end of the lease
            } finally {
                guard.unlock();
            }
        }

        void released() {
            guard.lock();
            try {
                holding = false;
                if (state == State.HOLDING) {
                    state = State.PASSING;
                    requeue = false;
                    changed.signalAll();
                }
            } finally {
                guard.unlock();
            }
        }

        private boolean interested() {
            return holding || waiters.containsKey(name);
        }

        void run() {
            Connection c = null;
            try {
                c = borrow();
                if (c == null) {
                    return;
                }
                connection = c;
                while (!closed) { // close() may have missed this connection: checked before each wait
                    boolean free;
                    boolean got;
                    try (PreparedStatement ps = c.prepareStatement("SELECT IS_FREE_LOCK(" + TURN_LOCK + "), GET_LOCK("
                            + TURN_LOCK + ", ?)")) {
                        ps.setString(1, key);
                        ps.setString(2, key);
                        ps.setDouble(3, queueSeconds);
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            free = rs.getInt(1) == 1;
                            got = rs.getInt(2) == 1;
                        }
                    }
                    if (!got) {
                        if (!stillWanted()) {
                            return;
                        }
                        continue;
                    }
                    boolean again = holdTurn(free);
                    if (!takeFreed()) {
                        try (PreparedStatement ps = c.prepareStatement("DO RELEASE_LOCK(" + TURN_LOCK + ")")) {
                            ps.setString(1, key);
                            ps.execute();
                        }
                    }
                    if (!again || !afterPass()) {
                        return;
                    }
                }
            } catch (SQLException | RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "turns of {0} in store {1} stopped: {2}", Arguments.quoted(name),
                        store, e.toString());
                discard(c);
                c = null;
            } catch (InterruptedException e) {
                discard(c); // closing
                c = null;
            } finally {
                guard.lock();
                try {
                    state = State.DONE;
                } finally {
                    guard.unlock();
                }
                turns.remove(name, this);
                giveBack(c);
                signals.signal(name); // a waiter skipping attempts for this turn tries at once
            }
        }

        /**
         * The wait in the queue ran out (the waiter polled meanwhile): whether to queue again, only while a waiter
         * of this store waits or it holds the lock ({@link #requeue}, set by every poll, would outlive them).
         */
        private boolean stillWanted() {
            guard.lock();
            try {
                return !closed && interested();
            } finally {
                guard.unlock();
            }
        }

        /** Holds the turn until the lock is released or nobody here wants it; true if it was released (pass on). */
        private boolean holdTurn(boolean free) throws InterruptedException {
            guard.lock();
            try {
                contended |= !free;
                headPolls = 0;
                releasedOutOfTurn = false;
                deferredTo = 0;
                long waited = System.nanoTime() - queuedAt;
                pollEvery = Math.max(pollMaxNanos, Math.min(queueNanos,
                        waited > Long.MAX_VALUE / POLL_SLACK ? Long.MAX_VALUE : POLL_SLACK * waited));
                state = holding ? State.HOLDING : State.HEAD;
                signals.signal(name);
                while (!closed && !broken && (state == State.HEAD || state == State.HOLDING) && interested()) {
                    if (state == State.HOLDING) {
                        long left = holdUntil - System.nanoTime();
                        if (left <= 0) {
                            // the lease ran out unrenewed (left to expire, or its renewal not heard of): the lock is
                            // the database's again, so the turn goes to the next store
                            holding = false;
                            state = State.PASSING;
                            requeue = false;
                            break;
                        }
                        changed.awaitNanos(left); // until the release, a renewal, the lease's end (or close)
                    } else {
                        changed.awaitNanos(INTEREST_CHECK_NANOS); // a waiter that gives up says nothing
                    }
                }
                while (lent) {
                    // a release statement runs on this connection; it is bounded by the socket timeout, and hands
                    // the connection back (lentBack) however it ends
                    changed.await();
                }
                boolean passing = state == State.PASSING;
                state = State.PASSING;
                return passing;
            } finally {
                guard.unlock();
            }
        }

        /** The turn was passed on: true to queue again, if this store asks within a grace and others wanted it. */
        private boolean afterPass() throws InterruptedException {
            guard.lock();
            try {
                long end = System.nanoTime() + graceNanos;
                while (!closed && !requeue && end - System.nanoTime() > 0) {
                    changed.awaitNanos(end - System.nanoTime());
                }
                boolean again = requeue && !closed;
                requeue = false;
                contended = false;
                if (again) {
                    state = State.QUEUED;
                    queuedAt = System.nanoTime();
                }
                return again;
            } finally {
                guard.unlock();
            }
        }
    }

    private Connection borrow() throws SQLException {
        synchronized (idle) {
            Connection c = idle.pollFirst();
            if (c != null) {
                return c;
            }
        }
        Connection c = direct.getConnection();
        String version = c.getMetaData().getDatabaseProductVersion();
        if (version == null || !version.contains("MariaDB")) {
            unsupported = true;
            discard(c);
            return null;
        }
        try {
            // a release runs on this connection (RELEASE_IN_TURN): it must commit at once, as on the pool's
            // connections, whatever the URL asks of the driver (autocommit=false) or the server's sessions begin with,
            // and read the server's clock, not one the URL set for the session (sessionVariables=timestamp=...), as
            // the pool's connections do (SqlDialect.connectionInitSql)
            c.setAutoCommit(true);
            try (Statement st = c.createStatement()) {
                st.execute(MySqlDialect.SESSION_CLOCK);
            }
        } catch (SQLException | RuntimeException e) {
            discard(c);
            throw e;
        }
        return c;
    }

    private void giveBack(Connection c) {
        if (c == null) {
            return;
        }
        synchronized (idle) {
            if (!closed && idle.size() < MAX_TURNS) {
                idle.addLast(c);
                return;
            }
        }
        discard(c);
    }

    private static void discard(Connection c) {
        if (c != null) {
            try {
                c.abort(Runnable::run);
            } catch (SQLException | RuntimeException e) {
                // already broken: the server frees its turn locks either way
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Turn t : turns.values()) {
            Thread w = t.worker;
            if (w != null) {
                w.interrupt();
            }
            discard(t.connection); // ends a wait in GET_LOCK; the server frees the turn locks it held
        }
        synchronized (idle) {
            idle.forEach(MariaDbTurns::discard);
            idle.clear();
        }
    }
}
