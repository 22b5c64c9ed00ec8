package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Why {@link SqlFence#advance} must come first in the transaction, measured: a newer holder that read the data
 * <em>before</em> advancing, while an older holder advanced, wrote and committed in between. Under MariaDB's
 * REPEATABLE READ (with {@code innodb_snapshot_isolation} off, MariaDB 10.x's default) the newer holder's write,
 * computed from its old snapshot, silently overwrites the older one's; with {@code innodb_snapshot_isolation=ON}
 * MariaDB refuses it with error 1020; PostgreSQL's REPEATABLE READ refuses the advance with a serialization
 * failure. The rule-abiding order is covered by {@code SqlFenceTest}.
 */
class SqlFenceSnapshotTest {

    private static final String TABLE = Databases.uniqueTable("fsnap");
    private static final String DATA = TABLE + "_data";
    private static final SqlFence FENCE = SqlFence.table(TABLE);

    @BeforeAll
    static void createTables() throws SQLException {
        for (String url : List.of(Databases.mysql(), Databases.postgres())) {
            try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
                FENCE.createTableIfMissing(c);
                st.execute("CREATE TABLE " + DATA + " (id VARCHAR(64) NOT NULL PRIMARY KEY, n BIGINT NOT NULL)");
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
    }

    @Test
    void mariadbRepeatableReadLetsAWriteFromASnapshotTakenBeforeAdvanceOverwriteSilently() throws Exception {
        String resource = "snap:off";
        try (Connection newer = connect(Databases.mysql()); Connection older = connect(Databases.mysql())) {
            setSnapshotIsolation(newer, false);
            seed(Databases.mysql(), resource);
            long seen = read(newer, resource); // the rule broken: a read before advance fixes the snapshot
            olderHolderWritesAndCommits(older, resource);

            FENCE.advance(newer, resource, 3);
            assertThat(read(newer, resource)).as("the snapshot predates the older holder's commit").isEqualTo(seen);
            write(newer, resource, seen + 1);
            newer.commit();
        }
        assertThat(counter(Databases.mysql(), resource)).as("the older holder's increment was lost").isEqualTo(1);
    }

    @Test
    void mariadbWithSnapshotIsolationOnRefusesItWithError1020() throws Exception {
        String resource = "snap:on";
        try (Connection newer = connect(Databases.mysql()); Connection older = connect(Databases.mysql())) {
            setSnapshotIsolation(newer, true);
            seed(Databases.mysql(), resource);
            long seen = read(newer, resource);
            olderHolderWritesAndCommits(older, resource);

            SQLException e = catchThrowableOfType(SQLException.class, () -> {
                FENCE.advance(newer, resource, 3);
                write(newer, resource, seen + 1);
                newer.commit();
            });
            assertThat((Object) e).as("the newer holder's transaction fails").isNotNull();
            assertThat(e.getErrorCode()).as(e.getMessage()).isEqualTo(1020);
            newer.rollback();
        }
        assertThat(counter(Databases.mysql(), resource)).as("the older holder's increment kept").isEqualTo(1);
    }

    @Test
    void postgresRepeatableReadRefusesTheAdvanceWithASerializationFailure() throws Exception {
        String resource = "snap:pg";
        try (Connection newer = connect(Databases.postgres()); Connection older = connect(Databases.postgres())) {
            seed(Databases.postgres(), resource);
            read(newer, resource);
            olderHolderWritesAndCommits(older, resource);

            SQLException e = catchThrowableOfType(SQLException.class, () -> FENCE.advance(newer, resource, 3));
            assertThat((Object) e).as("the advance fails").isNotNull();
            assertThat(e.getSQLState()).as(e.getMessage()).isEqualTo("40001");
            newer.rollback();
        }
        assertThat(counter(Databases.postgres(), resource)).as("the older holder's increment kept").isEqualTo(1);
    }

    private static void olderHolderWritesAndCommits(Connection older, String resource) throws SQLException {
        FENCE.advance(older, resource, 2);
        write(older, resource, read(older, resource) + 1);
        older.commit();
    }

    private static void setSnapshotIsolation(Connection c, boolean on) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("SET SESSION innodb_snapshot_isolation = " + (on ? "ON" : "OFF"));
        }
        c.commit();
    }

    private static void seed(String url, String resource) throws SQLException {
        try (Connection c = DriverManager.getConnection(url);
                PreparedStatement ps = c.prepareStatement("INSERT INTO " + DATA + " (id, n) VALUES (?, 0)")) {
            ps.setString(1, resource);
            ps.executeUpdate();
            c.setAutoCommit(false);
            FENCE.advance(c, resource, 1);
            c.commit();
        }
    }

    private static Connection connect(String url) throws SQLException {
        Connection c = DriverManager.getConnection(url);
        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        c.setAutoCommit(false);
        return c;
    }

    private static long read(Connection c, String resource) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT n FROM " + DATA + " WHERE id = ?")) {
            ps.setString(1, resource);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static void write(Connection c, String resource, long n) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + DATA + " SET n = ? WHERE id = ?")) {
            ps.setLong(1, n);
            ps.setString(2, resource);
            ps.executeUpdate();
        }
    }

    private static long counter(String url, String resource) throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            return read(c, resource);
        }
    }
}
