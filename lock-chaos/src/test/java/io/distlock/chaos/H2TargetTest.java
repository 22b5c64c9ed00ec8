package io.distlock.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.tck.fixture.ServerControl;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The H2 target: its server JVM, killed with SIGKILL, comes back from its file database with a committed row (with
 * {@code WRITE_DELAY=0}); paused with SIGSTOP, it answers nothing within the network timeout until resumed.
 */
class H2TargetTest {

    @Test
    void aKilledServerRestartsFromItsFilesAndAPausedOneAnswersNothingUntilResumed() throws Exception {
        try (H2Target target = new H2Target(0)) {
            try (Connection c = DriverManager.getConnection(target.operatorJdbcUrl());
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE kept (v INT)");
                st.execute("INSERT INTO kept VALUES (42)");
            }
            target.crashAndRestart(Duration.ofMillis(100));
            assertThat(value(target.operatorJdbcUrl())).isEqualTo(42);

            ServerControl server = target.server().orElseThrow();
            server.pause();
            try {
                assertThatThrownBy(() -> value(target.operatorJdbcUrl() + ";NETWORK_TIMEOUT=1000"))
                        .isInstanceOf(SQLException.class);
            } finally {
                server.resume();
            }
            assertThat(value(target.operatorJdbcUrl())).isEqualTo(42);
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
