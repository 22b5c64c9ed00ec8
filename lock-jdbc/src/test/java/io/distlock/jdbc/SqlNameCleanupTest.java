package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.spi.StoreUri;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link SqlNameCleanup} against H2, PostgreSQL and MariaDB: after a lock and a semaphore permit of names starting
 * with a prefix were taken and released, neither table keeps a row of those names, and names that the prefix would
 * match only if its {@code _} and {@code %} were LIKE wildcards keep theirs.
 */
@ExtendWith(Databases.class)
class SqlNameCleanupTest {

    private static final String PREFIX = "run_%:";
    private static final List<String> OTHERS = List.of("runX%:other", "run_Z:other", "run_%other");

    static Stream<String> databases() {
        return Stream.of("jdbc:h2:mem:" + Databases.uniqueTable("cleanup") + ";DB_CLOSE_DELAY=-1",
                Databases.postgres(), Databases.mysql());
    }

    @ParameterizedTest
    @MethodSource("databases")
    void deletesEveryRowOfTheNamesWithThePrefixAndNoOther(String database) throws Exception {
        String table = Databases.uniqueTable("cleanup");
        String uri = Databases.withOptions(database, "distlock.table=" + table);
        try (LockStore store = LockStore.open(uri)) {
            try (Lease lock = store.lock(PREFIX + "points").acquire();
                    Lease permit = store.semaphore(PREFIX + "api", 2).acquire()) {
                assertThat(List.of(lock, permit)).allMatch(l -> l.fencingToken() > 0);
            }
            for (String other : OTHERS) {
                store.lock(other).acquire().release();
            }
        }
        assertThat(names(uri, table + JdbcPermits.TABLE_SUFFIX)).as("permit rows before").isNotEmpty();

        assertThat(SqlNameCleanup.deleteNames(uri, PREFIX)).isGreaterThanOrEqualTo(2);

        assertThat(names(uri, table)).containsExactlyInAnyOrderElementsOf(OTHERS);
        assertThat(names(uri, table + JdbcPermits.TABLE_SUFFIX)).isEmpty();
    }

    @Test
    void aMissingPermitTableHasNothingToDelete() throws InterruptedException {
        String uri = "jdbc:h2:mem:" + Databases.uniqueTable("cleanup") + ";DB_CLOSE_DELAY=-1";
        try (LockStore store = LockStore.open(uri)) {
            store.lock(PREFIX + "only-a-lock").acquire().release();
        }
        assertThat(SqlNameCleanup.deleteNames(uri, PREFIX)).isEqualTo(1);
    }

    @Test
    void anEmptyPrefixIsRefusedBeforeAnythingIsDeleted() {
        assertThatThrownBy(() -> SqlNameCleanup.deleteNames("jdbc:h2:mem:x", ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("non-empty");
    }

    private static List<String> names(String uri, String table) throws SQLException {
        String url = JdbcSettings.parse(StoreUri.parse(uri)).driverUrl();
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT name FROM " + table)) {
            List<String> names = new ArrayList<>();
            while (rs.next()) {
                names.add(rs.getString(1));
            }
            return names;
        }
    }
}
