package io.distlock.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.DistributedSemaphore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The operator's deletion of a semaphore's rows in the row-delete fault: the fence counter's row and the free permit
 * rows go, a held permit's row stays and releases as usual, and the next permit's token is still above the last one.
 */
class PermitRowDeletionTest {

    static Stream<Arguments> targets() {
        return Stream.of(
                Arguments.of("postgresql", (Supplier<SqlTarget>) PostgresTarget::new),
                Arguments.of("mariadb", (Supplier<SqlTarget>) MariaDbTarget::new),
                Arguments.of("h2", (Supplier<SqlTarget>) () -> new H2Target(0)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void deletesTheCounterAndFreeRowsButNoHeldPermitAndTokensStillIncrease(String store, Supplier<SqlTarget> make)
            throws Exception {
        String name = "chaos-permit-rows:" + UUID.randomUUID();
        try (SqlTarget target = make.get(); LockStore locks = LockStore.open(target.uri(target.port()))) {
            DistributedSemaphore semaphore = locks.semaphore(name, 2);
            Lease released = semaphore.acquire();
            try (Lease held = semaphore.acquire()) {
                long first = Math.max(released.fencingToken(), held.fencingToken());
                released.release();
                assertThat(rows(target, name)).as("counter, the released permit's row, the held one").isEqualTo(3);
                assertThat(target.deleteFreePermitRows(name, Duration.ofSeconds(10))).isPositive();
                assertThat(rows(target, name)).as("only the held permit's row is left").isEqualTo(1);
                held.release();
                try (Lease next = semaphore.acquire()) {
                    assertThat(next.fencingToken()).isGreaterThan(first);
                }
            }
        }
    }

    private static int rows(SqlTarget target, String name) throws SQLException {
        try (Connection c = DriverManager.getConnection(target.operatorJdbcUrl());
                PreparedStatement st = c.prepareStatement(
                        "SELECT COUNT(*) FROM " + SqlTarget.PERMIT_TABLE + " WHERE name = ?")) {
            st.setString(1, name);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
