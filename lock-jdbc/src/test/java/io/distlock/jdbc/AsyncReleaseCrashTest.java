package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.StoreUri;
import io.distlock.tck.fixture.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The release that carries its notice commits without waiting for its WAL flush ({@link
 * PostgresDialect#releaseNotifying}); a server crash must never lose what came after it on the same pooled
 * connection: the next holder's acquire, acknowledged, is in the table after recovery with its token and fence (so
 * no token is granted twice), the release before it with it. On a PostgreSQL of the test's own, crashed with SIGKILL,
 * its WAL writer slowed to 10 s so an unflushed commit stays unflushed until the crash.
 */
class AsyncReleaseCrashTest {

    private static final String TABLE = "dl_async_crash";
    private static PostgresServer server;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(PostgresServer.available(), "skipped: no PostgreSQL server binaries to start");
        server = PostgresServer.start();
        try (Connection c = DriverManager.getConnection(server.url()); Statement st = c.createStatement()) {
            st.execute("ALTER SYSTEM SET wal_writer_delay = '10s'");
            st.execute("SELECT pg_reload_conf()");
        }
        new JdbcLockStoreProvider().open(StoreUri.parse(server.url() + "&distlock.table=" + TABLE)).close();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void anAcquireAfterAnUnflushedReleaseOnTheSameConnectionSurvivesACrash() throws Exception {
        PostgresDialect dialect = new PostgresDialect(TABLE);
        String name = "crash:after-release";
        long fence;
        try (Connection c = DriverManager.getConnection(server.url())) {
            long first = dialect.acquire(c, name, "t-first", "first", 60_000_000L);
            assertThat(first).isPositive();
            assertThat(dialect.releaseNotifying(c, name, "t-first", "distlock_r_0123", "r 0123 " + name)).isTrue();
            // the pool hands the same connection to the next holder's acquire
            fence = dialect.acquire(c, name, "t-next", "next", 60_000_000L);
            assertThat(fence).as("acquired after the release").isGreaterThan(first);
        }
        Row row = crashed(name);
        assertThat(row.token()).as("the acknowledged acquire after the crash").isEqualTo("t-next");
        assertThat(row.fence()).as("its fence").isEqualTo(fence);
    }

    @Test
    void anUnflushedReleaseLostInACrashLeavesTheRowToItsHolderNeverToNobody() throws Exception {
        PostgresDialect dialect = new PostgresDialect(TABLE);
        String name = "crash:release-alone";
        long fence;
        try (Connection c = DriverManager.getConnection(server.url())) {
            fence = dialect.acquire(c, name, "t-alone", "alone", 60_000_000L);
            assertThat(dialect.releaseNotifying(c, name, "t-alone", "distlock_r_0123", "r 0123 " + name)).isTrue();
        }
        Row row = crashed(name);
        // lost (the holder's until its lease ends) or flushed in time (free): either way the one fence granted
        assertThat(row.token()).as("the row after the crash").isIn("t-alone", null);
        assertThat(row.fence()).isEqualTo(fence);
    }

    /** Crashes the server, starts it again (recovery from its WAL) and reads the row of {@code name}. */
    private static Row crashed(String name) throws Exception {
        server.kill();
        server.startProcess();
        try (Connection c = DriverManager.getConnection(server.url());
             PreparedStatement ps = c.prepareStatement("SELECT owner_token, fence FROM " + TABLE
                     + " WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as("the row of %s after the crash", name).isTrue();
                return new Row(rs.getString(1), rs.getLong(2));
            }
        }
    }

    /** A lock row as the recovered server has it. */
    private record Row(String token, long fence) {
    }
}
