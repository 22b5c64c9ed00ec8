package io.distlock.jdbc;

/**
 * Wake-ups across processes, where the database offers a way to send them: told when a local waiter found a lock
 * held (or a semaphore full) and when this store released it, it lets waiters elsewhere retry at once instead of at
 * their next poll.
 * Polling stays the safety net, so a lost wake-up costs one poll, never a hang.
 */
interface RemoteWakeups extends AutoCloseable {

    /** None: other processes notice releases at their next poll. */
    RemoteWakeups NONE = new RemoteWakeups() {
        @Override
        public void waiting(String name) {
        }

        @Override
        public void released(String name) {
        }

        @Override
        public void close() {
        }
    };

    /** A waiter of this store found {@code name} held and waits for it. */
    void waiting(String name);

    /**
     * Whether the next attempt of a waiter of this store at {@code name} may be skipped, because the store waits in
     * a queue for its turn and is woken when it comes: -1 to make the attempt, else the nanoseconds until the
     * waiter's next attempt is due (a store still lets one attempt through every {@code pollMaxMillis}, or a few
     * times that while a long queue's turns keep coming round, the safety net of a lost turn). {@code first}: the
     * attempt is the first of its acquire, made unless the store just passed its turn on or took the lock out of
     * turn. -1 by default.
     */
    default long queued(String name, boolean first) {
        return -1;
    }

    /** An acquire of this store starts waiting for {@code name} (counted: signals may be shared with other stores). */
    default void waitBegins(String name) {
    }

    /** An acquire of this store that waited for {@code name} ended. */
    default void waitEnds(String name) {
    }

    /**
     * After a failed attempt at {@code name}: the pause before the next one when this store's turn has come (it is
     * at the head of the queue, and the holder took the lock without a turn), or -1 for the ordinary back-off.
     */
    default long headDelayNanos(String name) {
        return -1;
    }

    /**
     * This store was granted {@code name}, or renewed it, for {@code leaseNanos} from now: a store that keeps
     * something for its holder (MariaDB's turn) keeps it no longer than the lease.
     */
    default void granted(String name, long leaseNanos) {
    }

    /**
     * Frees the row of {@code name} if {@code token} still holds it, on {@code c}, in one statement; answers whether
     * it did. By default the dialect's release statement; a store may also read from the same statement whether
     * another store waits for a turn at the name, or send it on a connection of its own that holds the name's turn
     * and free the turn in the same statement (MariaDB's turns).
     */
    default boolean release(java.sql.Connection c, SqlDialect dialect, String name, String token)
            throws java.sql.SQLException {
        try (java.sql.PreparedStatement ps = c.prepareStatement(dialect.releaseSql())) {
            ps.setString(1, name);
            ps.setString(2, token);
            return ps.executeUpdate() == 1;
        }
    }

    /**
     * The release of {@code name} sent on a connection of the store's own, outside the pool, or null if there is none
     * (then {@link #release} runs on a pooled connection): MariaDB's turn holder's, which frees the turn lock in the
     * same statement. No pooled connection is borrowed for it, so none is checked first (HikariCP pings a connection
     * idle for 500 ms before lending it: a round trip before the release, after any hold that long). Answers as
     * {@link #release}. If that connection broke, the release is sent again through {@code onPool}, which runs a
     * statement on a pooled connection. By default null.
     */
    default Boolean releaseOnOwnConnection(String name, String token, SqlDialect dialect,
            java.util.function.Function<JdbcBackend.SqlWork<Boolean>, Boolean> onPool) throws java.sql.SQLException {
        return null;
    }

    /**
     * A waiting acquire's attempt at {@code name}, run on a connection of the store's own that has just answered, or
     * null if there is none (then the attempt borrows a pooled connection): the connection of MariaDB's turn, at the
     * head of the queue, which has just answered {@code GET_LOCK}. A store queued for its turn sends nothing while it
     * waits, so its pooled connection idles for the whole hold before it, and the pool would check it (a round trip)
     * on the hand-off's path. By default null.
     */
    default Long attemptOnOwnConnection(String name, JdbcBackend.SqlWork<Long> attempt) throws java.sql.SQLException {
        return null;
    }

    /** This store released {@code name}. */
    void released(String name);

    /**
     * A waiting acquire of this store found semaphore {@code name} full and waits for a permit. By default nothing:
     * semaphore waiters elsewhere poll.
     */
    default void permitWaiting(String name) {
    }

    /** This store released a permit of semaphore {@code name}. By default nothing. */
    default void permitReleased(String name) {
    }

    @Override
    void close();
}
