package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An operator or a cleanup job deletes lock rows ({@code DELETE}, {@code TRUNCATE}), as ShedLock users routinely
 * do. The fencing token must still grow for the next holder: a token the resource has already seen must never be
 * issued again for the same name.
 */
@ExtendWith(Databases.class)
class FenceAfterRowDeletionTest {

    static Stream<Arguments> databases() {
        return Stream.concat(Stores.all(), Stream.of(
                Arguments.of("mariadb-client", Databases.withOptions(Databases.mariadb(),
                        "distlock.table=" + Databases.uniqueTable("mc")))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void theNextHolderGetsAGreaterTokenAfterTheRowIsDeleted(String label, String uri) throws Exception {
        JdbcSettings settings = JdbcSettings.parse(io.distlock.spi.StoreUri.parse(uri));
        try (LockStore store = LockStore.open(uri)) {
            long previous = 0;
            for (int holder = 0; holder < 3; holder++) {
                try (Lease lease = store.lock("deleted:row").acquire()) {
                    assertThat(lease.fencingToken()).as("holder %d after the row was deleted", holder)
                            .isGreaterThan(previous);
                    previous = lease.fencingToken();
                }
                deleteRows(settings, holder % 2 == 0 ? "DELETE FROM " + settings.table() + " WHERE name = ?"
                        : "TRUNCATE TABLE " + settings.table());
            }
        }
    }

    private static void deleteRows(JdbcSettings settings, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(settings.driverUrl());
                PreparedStatement ps = c.prepareStatement(sql)) {
            if (sql.contains("?")) {
                ps.setString(1, "deleted:row");
            }
            ps.executeUpdate();
        }
    }
}
