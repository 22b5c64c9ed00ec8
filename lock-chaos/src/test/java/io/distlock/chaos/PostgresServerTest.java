package io.distlock.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.distlock.tck.fixture.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The kit's PostgreSQL fixture: rows survive a SIGKILL of every server process; a paused server answers nothing. */
class PostgresServerTest {

    @Test
    void aCrashedServerRestartsFromItsOwnFilesAndAPausedOneAnswersNothingUntilResumed() throws Exception {
        assumeTrue(PostgresServer.available(), "PostgreSQL server binaries not installed");
        try (PostgresServer server = PostgresServer.start()) {
            try (Connection c = DriverManager.getConnection(server.url()); Statement st = c.createStatement()) {
                st.execute("CREATE TABLE kept (v INT)");
                st.execute("INSERT INTO kept VALUES (42)");
            }
            server.kill();
            server.startProcess();
            assertThat(value(server.url())).isEqualTo(42);

            server.pause();
            try {
                assertThatThrownBy(() -> value(server.url() + "&connectTimeout=1&socketTimeout=1"))
                        .isInstanceOf(SQLException.class);
            } finally {
                server.resume();
            }
            assertThat(value(server.url())).isEqualTo(42);
        }
    }

    private static int value(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT v FROM kept")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
