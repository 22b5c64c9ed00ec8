package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.distlock.spi.StoreUri;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link PostgresDialect#boundingLockWaits} sets the session's {@code statement_timeout} to the table change's short
 * bound; the pooled connection goes back to the pool whatever the change raised (only an outage evicts it), so the
 * bound must be reset on every way out, or the next user of that connection (another name's acquire or release)
 * runs under it. PostgreSQL, poolSize 1: the next user is on the same connection.
 */
@ExtendWith(Databases.class)
class BoundedLockWaitsResetTest {

    private static final long BOUND_MILLIS = 100;

    @Test
    void aRuntimeExceptionFromTheChangeLeavesTheSessionsOwnStatementTimeout() {
        assertTheBoundIsGoneAfter(new IllegalStateException("forced by the test"));
    }

    @Test
    void anErrorFromTheChangeLeavesTheSessionsOwnStatementTimeout() {
        assertTheBoundIsGoneAfter(new StackOverflowError("forced by the test"));
    }

    private static void assertTheBoundIsGoneAfter(Throwable forced) {
        String table = Databases.uniqueTable("bnd");
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + table + "&distlock.poolSize=1");
        PostgresDialect dialect = new PostgresDialect(table);
        try (JdbcBackend store = (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri))) {
            int backend = store.withConnection("reading the backend", BoundedLockWaitsResetTest::backend);
            String own = store.withConnection("reading the timeout", BoundedLockWaitsResetTest::statementTimeout);

            Throwable raised = catchThrowable(() -> store.withConnection("a table change that fails",
                    c -> dialect.boundingLockWaits(c, BOUND_MILLIS, bounded -> {
                        if (forced instanceof Error e) {
                            throw e;
                        }
                        throw (RuntimeException) forced;
                    })));

            assertThat(raised).as("what the change raised, passed on").isSameAs(forced);
            assertThat(store.withConnection("reading the backend", BoundedLockWaitsResetTest::backend))
                    .as("the backend of the one pooled connection (kept, not evicted)").isEqualTo(backend);
            assertThat(store.withConnection("reading the timeout", BoundedLockWaitsResetTest::statementTimeout))
                    .as("the next user's statement_timeout after a change that raised " + forced)
                    .isEqualTo(own);
            // the next user's statement that outlasts the change's bound is not cancelled by it
            store.withConnection("a statement longer than the bound", c -> {
                try (Statement st = c.createStatement()) {
                    return st.execute("SELECT pg_sleep(" + 3 * BOUND_MILLIS / 1000.0 + ")");
                }
            });
        }
    }

    /**
     * A change whose connection the server dropped (its backend terminated) fails the reset too: the change's own
     * failure is what the caller sees, SQL or not, with the failed reset suppressed into it, never in its place.
     */
    @Test
    void aResetOnADroppedConnectionIsSuppressedIntoTheChangesFailure() throws Exception {
        PostgresDialect dialect = new PostgresDialect(Databases.uniqueTable("bnd"));
        IllegalStateException forced = new IllegalStateException("forced by the test after the drop");
        try (Connection c = DriverManager.getConnection(Databases.postgres())) {
            Throwable raised = catchThrowable(() -> dialect.boundingLockWaits(c, 5000, bounded -> {
                terminate(backend(bounded));
                throw forced;
            }));
            assertThat(raised).as("an unchecked failure of a change whose connection was dropped").isSameAs(forced);
            assertThat(raised.getSuppressed()).as("the reset that failed on the dropped connection")
                    .singleElement().isInstanceOf(SQLException.class);
        }
        try (Connection c = DriverManager.getConnection(Databases.postgres())) {
            AtomicReference<SQLException> own = new AtomicReference<>();
            Throwable raised = catchThrowable(() -> dialect.boundingLockWaits(c, 5000, bounded -> {
                terminate(backend(bounded));
                try (Statement st = bounded.createStatement()) {
                    return st.execute("SELECT 1");
                } catch (SQLException e) {
                    own.set(e);
                    throw e;
                }
            }));
            assertThat(raised).as("the SQL failure of a change whose connection was dropped").isNotNull()
                    .isSameAs(own.get());
            assertThat(raised.getSuppressed()).as("the reset that failed on the dropped connection")
                    .singleElement().isInstanceOf(SQLException.class);
        }
    }

    /** Ends the server backend {@code pid} from a session of its own, as an administrator or a failover would. */
    private static void terminate(int pid) throws SQLException {
        try (Connection admin = DriverManager.getConnection(Databases.postgres());
             Statement st = admin.createStatement()) {
            st.execute("SELECT pg_terminate_backend(" + pid + ", 5000)");
        }
    }

    private static String statementTimeout(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW statement_timeout")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static int backend(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
