package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Attacks on the release a MariaDB store sends on its turn's own connection (the statement that frees the turn lock
 * too, {@link MariaDbTurns#RELEASE_IN_TURN}), against the machine's MariaDB: that connection is not one of the pool's,
 * so whatever the pool sets up on its connections (autocommit, the session's settings) it may lack.
 */
@ExtendWith(Databases.class)
class MariaDbTurnReleaseAttackTest {

    private static final Duration WITHIN = Duration.ofSeconds(10);

    private final String table = Databases.uniqueTable("turnatk");
    private final String uri = Databases.withOptions(Databases.mariadb(), "distlock.table=" + table
            + "&distlock.pollMaxMillis=60000&distlock.socketTimeoutMillis=4000");
    private final ExecutorService waiter = Executors.newSingleThreadExecutor();
    private TurnLockWatch watch;

    @BeforeEach
    void connect() throws SQLException {
        watch = new TurnLockWatch(uri, table);
    }

    @AfterEach
    void close() throws Exception {
        waiter.shutdownNow();
        assertThat(waiter.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        watch.close();
    }

    /**
     * A URL that asks the driver for connections without autocommit ({@code autocommit=false}, a MariaDB client
     * option): the pool turns autocommit on for its connections, and a release on a turn's connection must be
     * committed as well, or the row stays locked (and held, to everyone else) by a transaction nobody commits.
     */
    @Test
    void aReleaseInATurnCommitsOnAUrlThatTurnsAutocommitOff() throws Exception {
        String name = "turn-autocommit";
        String off = uri + "&autocommit=false";
        try (LockStore a = LockStore.open(uri + "&connectionAttributes=ac:a");
                LockStore b = LockStore.open(off + "&connectionAttributes=ac:b")) {
            Lease first = a.lock(name).acquire();
            Future<Lease> byB = waiter.submit(() -> b.lock(name).tryAcquire(WITHIN).orElse(null));
            Awaitility.await().atMost(WITHIN).pollInterval(Duration.ofMillis(1))
                    .until(() -> watch.held(watch.key(name)));
            first.release();
            Lease held = byB.get(WITHIN.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(held).as("b took the lock through its turn").isNotNull();
            held.release();
            long start = System.nanoTime();
            Optional<Lease> again = a.lock(name).tryAcquire();
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(again).as("a single try after b's release (took %d ms)", millis).isPresent();
            again.get().release();
        }
    }

    /**
     * The turn's connection sits idle while the store holds the lock through the turn, for as long as it holds it:
     * longer than the server's {@code wait_timeout}, a proxy's idle cut, or until an operator kills it. The pool
     * checks its connections before use; a release on a turn connection that died meanwhile must still free the row
     * (the database is fine), not fail and leave the lock to the lease's end.
     */
    @Test
    void aReleaseInATurnWhoseConnectionDiedWhileHeldStillFreesTheLock() throws Exception {
        String name = "turn-killed";
        try (LockStore a = LockStore.open(uri + "&connectionAttributes=kill:a");
                LockStore b = LockStore.open(uri + "&connectionAttributes=kill:b")) {
            Lease first = a.lock(name).acquire();
            Future<Lease> byB = waiter.submit(() -> b.lock(name).tryAcquire(WITHIN).orElse(null));
            Awaitility.await().atMost(WITHIN).pollInterval(Duration.ofMillis(1))
                    .until(() -> watch.held(watch.key(name)));
            first.release();
            Lease held = byB.get(WITHIN.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(held).as("b took the lock through its turn").isNotNull();
            long turnConnection = watch.holder(watch.key(name));
            assertThat(turnConnection).as("the connection holding b's turn lock").isPositive();
            watch.kill(turnConnection);
            Awaitility.await().atMost(WITHIN).pollInterval(Duration.ofMillis(1))
                    .until(() -> !watch.held(watch.key(name)));
            held.release();
            Optional<Lease> again = a.lock(name).tryAcquire();
            assertThat(again).as("a single try after b's release").isPresent();
            again.get().release();
        }
    }

    /**
     * A URL whose sessions run a day ahead ({@code sessionVariables=timestamp=...}, as in {@link ClockSkewTest}):
     * the pool resets every connection's clock to the server's ({@code timestamp = DEFAULT}), and a release sent on a
     * turn's connection must compare the lease's end with that clock too, or a live lease reads as expired, the
     * release matches nothing and the row stays held to the lease's end.
     */
    @Test
    void aReleaseInATurnReadsTheServersClockOnAUrlWhoseSessionsRunAhead() throws Exception {
        String name = "turn-skewed";
        long dayAhead = System.currentTimeMillis() / 1000 + 86_400;
        try (LockStore a = LockStore.open(uri + "&connectionAttributes=skew:a");
                LockStore b = LockStore.open(uri + "&sessionVariables=timestamp=" + dayAhead
                        + "&connectionAttributes=skew:b")) {
            Lease first = a.lock(name).acquire();
            Future<Lease> byB = waiter.submit(() -> b.lock(name).tryAcquire(WITHIN).orElse(null));
            Awaitility.await().atMost(WITHIN).pollInterval(Duration.ofMillis(1))
                    .until(() -> watch.held(watch.key(name)));
            first.release();
            Lease held = byB.get(WITHIN.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(held).as("b took the lock through its turn").isNotNull();
            held.release();
            Optional<Lease> again = a.lock(name).tryAcquire();
            assertThat(again).as("a single try after b's release").isPresent();
            again.get().release();
        }
    }

    /**
     * A store's first release reads {@code DATABASE()} in a statement of its own, after the release committed (its
     * later releases name the turn lock themselves): that statement's failure (here its answer lost until the
     * socket timeout) must not turn a release that freed the row into a failed one.
     */
    @Test
    void aFirstReleaseWhoseDatabaseReadFailsStillReportsTheRelease() throws Exception {
        String name = "turn-dbread";
        try (ReplyDroppingProxy proxy = new ReplyDroppingProxy(uri)) {
            try (LockStore a = LockStore.open(proxy.route(uri).replace("socketTimeoutMillis=4000",
                    "socketTimeoutMillis=1000"));
                    LockStore b = LockStore.open(uri)) {
                Lease held = a.lock(name).acquire();
                proxy.dropRepliesFrom(java.util.regex.Pattern.compile("SELECT DATABASE\\(\\)"));
                try {
                    held.release();
                } finally {
                    proxy.passReplies();
                }
                Optional<Lease> again = b.lock(name).tryAcquire();
                assertThat(again).as("the row was freed by the release").isPresent();
                again.get().release();
                // the connection whose read failed is not handed to a's next operation
                Lease next = a.lock(name).tryAcquire().orElseThrow();
                next.release();
            }
        }
    }

    /**
     * The turn lock's name a store computes from its database's name ({@link MariaDbTurns#databaseOf}) is the one the
     * server computes from {@code CAST(DATABASE() AS BINARY)}, whatever character set the connection reads results
     * in: through Connector/J with {@code characterSetResults=ISO-8859-1} a database named in Cyrillic reads back as
     * question marks, and a release's probe named a turn lock nobody holds (the releasing store never learned that
     * another store waited at the head of the queue, and took the lock back before it).
     */
    @Test
    void theTurnLockNamedInTheStoreIsTheServersWhateverCharsetResultsComeIn() throws Exception {
        String db = "dl_тест_" + Long.toHexString(System.nanoTime() & 0xffffff);
        try (java.sql.Statement st = watch.connection().createStatement()) {
            st.execute("CREATE DATABASE `" + db + "`");
        }
        try {
            String url = Databases.mysql().replaceFirst("\\?.*$", "").replaceFirst("/[^/]*$", "/"
                    + java.net.URLEncoder.encode(db, java.nio.charset.StandardCharsets.UTF_8))
                    + "?user=root&characterSetResults=ISO-8859-1";
            String key = watch.key("orders:42");
            try (Connection c = DriverManager.getConnection(url);
                    PreparedStatement ps = c.prepareStatement("SELECT " + MariaDbTurns.TURN_LOCK)) {
                ps.setString(1, key);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(MariaDbTurns.turnLock(MariaDbTurns.databaseOf(c), key))
                            .as("the turn lock named in the store on database %s", db).isEqualTo(rs.getString(1));
                }
            }
        } finally {
            try (java.sql.Statement st = watch.connection().createStatement()) {
                st.execute("DROP DATABASE `" + db + "`");
            }
        }
    }

    /**
     * A release stuck on the turn's connection (an operator keeps the row locked) while its store is closed: the
     * close and the release both return within bounds, the turn lock goes with the closed store, and once the
     * operator lets go the lock is free by the lease's end at the latest (the release may still free it at once).
     */
    @Test
    void aCloseWhileAReleaseWaitsOnTheTurnsConnectionIsBounded() throws Exception {
        String name = "turn-close";
        ExecutorService others = Executors.newFixedThreadPool(2);
        try (LockStore a = LockStore.open(uri + "&connectionAttributes=close:a");
                LockStore b = LockStore.open(uri + "&connectionAttributes=close:b")) { // closed twice: no-op
            Lease first = a.lock(name).acquire();
            Future<Lease> byB = waiter.submit(() -> b.lock(name, io.distlock.LockOptions.defaults()
                    .withLeaseTime(Duration.ofSeconds(6))).tryAcquire(WITHIN).orElse(null));
            Awaitility.await().atMost(WITHIN).pollInterval(Duration.ofMillis(1))
                    .until(() -> watch.held(watch.key(name)));
            first.release();
            Lease held = byB.get(WITHIN.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(held).as("b took the lock through its turn").isNotNull();
            watch.connection().setAutoCommit(false);
            try (PreparedStatement lockRow = watch.connection().prepareStatement("SELECT name FROM " + table
                    + " WHERE name = ? FOR UPDATE")) {
                lockRow.setString(1, name);
                lockRow.executeQuery().close();
            }
            Future<Object> release = others.submit(() -> {
                try {
                    held.release();
                    return "released";
                } catch (RuntimeException e) {
                    return e;
                }
            });
            try (Connection look = DriverManager.getConnection(
                    JdbcSettings.parse(io.distlock.spi.StoreUri.parse(uri)).driverUrl())) {
                Awaitility.await().atMost(WITHIN).pollInterval(Duration.ofMillis(5)).until(() -> {
                    try (PreparedStatement ps = look.prepareStatement("SELECT COUNT(*) FROM"
                            + " information_schema.PROCESSLIST WHERE INFO LIKE ? AND INFO LIKE '%RELEASE_LOCK%'")) {
                        ps.setString(1, "UPDATE " + table + "%");
                        try (ResultSet rs = ps.executeQuery()) {
                            return rs.next() && rs.getInt(1) > 0;
                        }
                    }
                });
            }
            long start = System.nanoTime();
            Future<?> closing = others.submit(() -> {
                b.close();
                return null;
            });
            closing.get(20, TimeUnit.SECONDS);
            Object outcome = release.get(20, TimeUnit.SECONDS);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            System.out.println("MariaDbTurnReleaseAttackTest: close took " + millis + " ms; release: " + outcome);
            assertThat(millis).as("close and the stuck release, socket timeout 4 s").isLessThan(15_000);
            watch.connection().commit();
            watch.connection().setAutoCommit(true);
            Awaitility.await().atMost(WITHIN).pollInterval(Duration.ofMillis(5))
                    .until(() -> !watch.held(watch.key(name)));
            Optional<Lease> again = a.lock(name).tryAcquire(Duration.ofSeconds(8));
            assertThat(again).as("a takes the lock by b's lease end at the latest").isPresent();
            again.get().release();
        } finally {
            others.shutdownNow();
            assertThat(others.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }
}
