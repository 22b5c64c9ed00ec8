package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.StaleFenceException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link SqlFence} on real databases, at the isolation levels where it matters: a stale holder's transaction is
 * refused, two holders' concurrent transactions are serialised by the fence row in both orders (the second one is
 * seen waiting on the row lock, then refused if it is the older, or sees the older one's write if it is the newer),
 * and the same token twice is accepted. Each holder's work is a read-modify-write of a counter, so a stale write or
 * a stale read would show as a wrong total. Under PostgreSQL's snapshot isolation the waiting holder gets a
 * serialization failure instead, and its retry then behaves as under READ COMMITTED.
 */
class SqlFenceTest {

    /** One database, reached through one driver, at one isolation level. */
    record Db(String label, String url, int isolation, boolean serializationFailureOnWait) {
        @Override
        public String toString() {
            return label;
        }
    }

    private static final String TABLE = Databases.uniqueTable("fence");
    private static final String DATA = TABLE + "_data";
    private static final SqlFence FENCE = SqlFence.table(TABLE);
    private static final String H2 = "jdbc:h2:mem:" + TABLE + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=120000";
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static Connection h2Keeper;
    private final List<Connection> opened = new ArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool();

    static Stream<Db> databases() {
        return Stream.of(
                new Db("MariaDB via Connector/J, REPEATABLE READ", Databases.mysql(),
                        Connection.TRANSACTION_REPEATABLE_READ, false),
                new Db("MariaDB via Connector/J, READ COMMITTED", Databases.mysql(),
                        Connection.TRANSACTION_READ_COMMITTED, false),
                new Db("MariaDB via the MariaDB client, REPEATABLE READ", Databases.mariadb(),
                        Connection.TRANSACTION_REPEATABLE_READ, false),
                new Db("PostgreSQL, READ COMMITTED", Databases.postgres(),
                        Connection.TRANSACTION_READ_COMMITTED, false),
                new Db("PostgreSQL, REPEATABLE READ", Databases.postgres(),
                        Connection.TRANSACTION_REPEATABLE_READ, true),
                new Db("PostgreSQL, SERIALIZABLE", Databases.postgres(),
                        Connection.TRANSACTION_SERIALIZABLE, true),
                new Db("H2, READ COMMITTED", H2, Connection.TRANSACTION_READ_COMMITTED, false));
    }

    @BeforeAll
    static void createTables() throws SQLException {
        h2Keeper = DriverManager.getConnection(H2);
        for (String url : List.of(Databases.mysql(), Databases.postgres(), H2)) {
            try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
                FENCE.createTableIfMissing(c);
                FENCE.createTableIfMissing(c); // a second time finds it and does nothing
                st.execute("CREATE TABLE " + DATA + " (id VARCHAR(255) NOT NULL PRIMARY KEY, n BIGINT NOT NULL)");
            }
        }
    }

    @AfterAll
    static void dropTables() throws SQLException {
        for (String url : List.of(Databases.mysql(), Databases.postgres())) {
            try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
                st.execute("DROP TABLE IF EXISTS " + TABLE);
                st.execute("DROP TABLE IF EXISTS " + DATA);
            }
        }
        h2Keeper.close();
    }

    @AfterEach
    void closeConnections() throws SQLException {
        pool.shutdownNow();
        for (Connection c : opened) {
            c.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aStaleHoldersTransactionIsRefused(Db db) throws Exception {
        String resource = newResource(db);
        Connection newer = connect(db);
        FENCE.advance(newer, resource, 6);
        increment(newer, resource);
        newer.commit();

        Connection stale = connect(db);
        assertThatThrownBy(() -> FENCE.advance(stale, resource, 5))
                .isInstanceOfSatisfying(StaleFenceException.class, e -> {
                    assertThat(e.resource()).isEqualTo(resource);
                    assertThat(e.fencingToken()).isEqualTo(5);
                    assertThat(e.recordedToken()).isEqualTo(6);
                    assertThat(e.getMessage()).contains("'" + resource + "'", "5", "6");
                });
        stale.rollback();
        assertThat(recorded(db, resource)).isEqualTo(6);
        assertThat(counter(db, resource)).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void theSameTokenTwiceIsAccepted(Db db) throws Exception {
        String resource = newResource(db);
        Connection c = connect(db);
        FENCE.advance(c, resource, 3);
        FENCE.advance(c, resource, 3); // twice in one transaction
        increment(c, resource);
        c.commit();
        FENCE.advance(c, resource, 3); // and again in the next one
        increment(c, resource);
        c.commit();
        FENCE.advance(c, resource, 4);
        c.commit();
        assertThat(recorded(db, resource)).isEqualTo(4);
        assertThat(counter(db, resource)).isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void anOlderHolderWaitingBehindANewerOneIsRefusedOnceItCommits(Db db) throws Exception {
        String resource = newResource(db);
        Connection newer = connect(db);
        Connection older = connect(db);
        seed(newer, resource);
        FENCE.advance(newer, resource, 8);

        String olderSession = sessionId(db, older);
        Future<Outcome> late = pool.submit(() -> holder(db, older, resource, 7));
        awaitBlocked(db, olderSession, late, false);
        increment(newer, resource);
        newer.commit();

        Outcome outcome = late.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(outcome.committed()).as("stale write accepted").isFalse();
        assertThat(outcome.refusedBy()).isEqualTo(8);
        assertThat(outcome.serializationFailures()).isEqualTo(db.serializationFailureOnWait() ? 1 : 0);
        assertThat(recorded(db, resource)).isEqualTo(8);
        assertThat(counter(db, resource)).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aNewerHolderWaitingBehindAnOlderOneSeesItsWrite(Db db) throws Exception {
        String resource = newResource(db);
        Connection older = connect(db);
        Connection newer = connect(db);
        seed(older, resource);
        FENCE.advance(older, resource, 7);

        String newerSession = sessionId(db, newer);
        Future<Outcome> next = pool.submit(() -> holder(db, newer, resource, 8));
        awaitBlocked(db, newerSession, next, false);
        increment(older, resource);
        older.commit();

        Outcome outcome = next.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(outcome.committed()).isTrue();
        assertThat(outcome.read()).as("the newer holder read the older one's write").isEqualTo(1);
        assertThat(outcome.serializationFailures()).isEqualTo(db.serializationFailureOnWait() ? 1 : 0);
        assertThat(recorded(db, resource)).isEqualTo(8);
        assertThat(counter(db, resource)).as("no update lost").isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void twoHoldersCreatingTheFenceRowAtOnceAreSerialisedToo(Db db) throws Exception {
        String resource = newResource(db);
        Connection newer = connect(db);
        Connection older = connect(db);
        FENCE.advance(newer, resource, 2); // inserts the resource's row, not committed yet

        String olderSession = sessionId(db, older);
        Future<Outcome> late = pool.submit(() -> holder(db, older, resource, 1));
        awaitBlocked(db, olderSession, late, true);
        increment(newer, resource);
        newer.commit();

        Outcome outcome = late.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(outcome.committed()).as("stale write accepted").isFalse();
        assertThat(outcome.refusedBy()).isEqualTo(2);
        assertThat(recorded(db, resource)).isEqualTo(2);
        assertThat(counter(db, resource)).isEqualTo(1);
    }

    /**
     * The H2 case of the test above, many times: H2 may decide "not matched" before it waits for the other
     * transaction's uncommitted first row and then fail its insert with a unique-key violation; advance must still
     * answer with a refusal, never with that error.
     */
    @Test
    void onH2ARowCreatedAtTheSameMomentNeverSurfacesAsADuplicateKey() throws Exception {
        Db h2 = databases().filter(db -> db.url().equals(H2)).findFirst().orElseThrow();
        for (int round = 0; round < 40; round++) {
            String resource = newResource(h2);
            Connection newer = connect(h2);
            Connection older = connect(h2);
            FENCE.advance(newer, resource, 2);
            String olderSession = sessionId(h2, older);
            Future<Outcome> late = pool.submit(() -> holder(h2, older, resource, 1));
            awaitBlocked(h2, olderSession, late, true);
            newer.commit();
            Outcome outcome = late.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(outcome.refusedBy()).as("round %d: refused by the newer token", round).isEqualTo(2);
        }
    }

    @Test
    void badInputIsRefusedWithAClearMessage() throws Exception {
        Connection c = DriverManager.getConnection(H2);
        opened.add(c);
        c.setAutoCommit(false);
        assertThatThrownBy(() -> FENCE.advance(c, null, 1)).isInstanceOf(NullPointerException.class)
                .hasMessage("resource must not be null");
        assertThatThrownBy(() -> FENCE.advance(c, "", 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("resource must not be empty");
        assertThatThrownBy(() -> FENCE.advance(c, "x".repeat(256), 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("256 characters long").hasMessageContaining("at most 255");
        assertThatThrownBy(() -> FENCE.advance(c, "r", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("fencing token must be at least 1, got 0");
        assertThatThrownBy(() -> FENCE.advance(c, "r", -5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("fencing token must be at least 1, got -5");
        assertThatThrownBy(() -> FENCE.advance(null, "r", 1)).isInstanceOf(NullPointerException.class)
                .hasMessage("connection must not be null");
        c.setAutoCommit(true);
        assertThatThrownBy(() -> FENCE.advance(c, "r", 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("setAutoCommit(false)");

        for (String bad : List.of("", "1fences", "fences;drop table x", "a.b.c", "my-fences", "f ences", "x.",
                "\"fences\"", "a".repeat(64))) {
            assertThatThrownBy(() -> SqlFence.table(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + bad + "' is not a plain table name");
        }
        assertThatThrownBy(() -> SqlFence.table(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("fence table name must not be null");
        assertThat(SqlFence.table("ops.fences_2").tableName()).isEqualTo("ops.fences_2");
        assertThat(SqlFence.defaults().tableName()).isEqualTo("distlock_fences");
    }

    @Test
    void aMissingTableIsTheDatabasesError() throws Exception {
        Connection c = DriverManager.getConnection(H2);
        opened.add(c);
        c.setAutoCommit(false);
        assertThatThrownBy(() -> SqlFence.table("no_such_fences").advance(c, "r", 1))
                .isInstanceOf(SQLException.class).hasMessageContaining("NO_SUCH_FENCES");
    }

    /** What one holder's transaction came to. */
    record Outcome(boolean committed, long read, long refusedBy, int serializationFailures) {
    }

    /**
     * One holder's whole transaction: advance, read the counter, write it + 1, commit. A serialization failure rolls
     * back and retries (at most twice); a refusal rolls back.
     */
    private static Outcome holder(Db db, Connection c, String resource, long token) throws SQLException {
        int failures = 0;
        while (true) {
            try {
                FENCE.advance(c, resource, token);
                long read = increment(c, resource);
                c.commit();
                return new Outcome(true, read, 0, failures);
            } catch (StaleFenceException e) {
                c.rollback();
                return new Outcome(false, -1, e.recordedToken(), failures);
            } catch (SQLException e) {
                c.rollback();
                if (!"40001".equals(e.getSQLState()) || ++failures > 2) {
                    throw e;
                }
            }
        }
    }

    /** Reads the resource's counter and writes it + 1; returns what it read. */
    private static long increment(Connection c, String resource) throws SQLException {
        long n;
        try (PreparedStatement ps = c.prepareStatement("SELECT n FROM " + DATA + " WHERE id = ?")) {
            ps.setString(1, resource);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                n = rs.getLong(1);
            }
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + DATA + " SET n = ? WHERE id = ?")) {
            ps.setLong(1, n + 1);
            ps.setString(2, resource);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        return n;
    }

    /** The database's id of the session behind {@code c} (ends the transaction that asked). */
    private static String sessionId(Db db, Connection c) throws SQLException {
        String sql = db.url().startsWith("jdbc:postgresql:") ? "SELECT pg_backend_pid()"
                : db.url().startsWith("jdbc:h2:") ? "SELECT SESSION_ID()" : "SELECT CONNECTION_ID()";
        return single(c, sql);
    }

    /**
     * Waits until the database shows the session {@code id} waiting for a lock (or its task failed early). H2 shows
     * a wait for another transaction's uncommitted new row only as its statement still running.
     */
    private void awaitBlocked(Db db, String id, Future<?> task, boolean newRow) throws SQLException {
        String query;
        if (db.url().startsWith("jdbc:postgresql:")) {
            query = "SELECT COUNT(*) FROM pg_stat_activity WHERE pid = ? AND wait_event_type = 'Lock'";
        } else if (db.url().startsWith("jdbc:h2:")) {
            query = "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE SESSION_ID = ? AND "
                    + (newRow ? "EXECUTING_STATEMENT LIKE '%MERGE INTO " + TABLE + "%'" : "BLOCKER_ID IS NOT NULL");
        } else {
            query = "SELECT COUNT(*) FROM information_schema.innodb_trx WHERE trx_mysql_thread_id = ?"
                    + " AND trx_state = 'LOCK WAIT'";
        }
        Connection observer = DriverManager.getConnection(db.url());
        opened.add(observer);
        await().atMost(WAIT).until(() -> {
            if (task.isDone()) {
                task.get(); // surfaces its failure
                throw new AssertionError("the second holder's advance did not wait for the first one's row lock");
            }
            try (PreparedStatement ps = observer.prepareStatement(query)) {
                ps.setLong(1, Long.parseLong(id));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1) == 1;
                }
            }
        });
    }

    private static String single(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            String v = rs.getString(1);
            c.commit();
            return v;
        }
    }

    /** Records token 1 for the resource and commits, so that the fence row exists. */
    private static void seed(Connection c, String resource) throws SQLException {
        FENCE.advance(c, resource, 1);
        c.commit();
    }

    /** A resource name unique to the test, with its counter at 0. */
    private static String newResource(Db db) throws SQLException {
        String resource = "orders:" + UUID.randomUUID();
        try (Connection c = DriverManager.getConnection(db.url());
                PreparedStatement ps = c.prepareStatement("INSERT INTO " + DATA + " (id, n) VALUES (?, 0)")) {
            ps.setString(1, resource);
            ps.executeUpdate();
        }
        return resource;
    }

    private Connection connect(Db db) throws SQLException {
        Connection c = DriverManager.getConnection(db.url());
        opened.add(c);
        c.setTransactionIsolation(db.isolation());
        c.setAutoCommit(false);
        return c;
    }

    private static long recorded(Db db, String resource) throws SQLException {
        return query(db, "SELECT fence FROM " + TABLE + " WHERE resource = ?", resource);
    }

    private static long counter(Db db, String resource) throws SQLException {
        return query(db, "SELECT n FROM " + DATA + " WHERE id = ?", resource);
    }

    private static long query(Db db, String sql, String resource) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.url()); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, resource);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getLong(1);
            }
        }
    }
}
