package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.Grant;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The sweep of unused names ({@link RowSweeper}) leaves the permit table alone until this store has used a
 * semaphore: a store that only locks sends the permit table no statement (its table is usually missing, and on
 * MariaDB the MariaDB client logs a WARN for every failed statement). Counted on the wire, through a proxy.
 */
@ExtendWith(Databases.class)
class PermitSweepOnlyWhenUsedTest {

    static Stream<Arguments> databases() {
        return Stream.of(Arguments.of("mariadb via Connector/J", Databases.mysql()),
                Arguments.of("mariadb via the MariaDB client", Databases.mariadb()),
                Arguments.of("postgresql", Databases.postgres()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aStoreThatOnlyLocksNeverSweepsThePermitTable(String label, String database) throws Exception {
        String table = Databases.uniqueTable("ps");
        String direct = Databases.withOptions(database, "distlock.table=" + table);
        try (RequestCountingProxy proxy = new RequestCountingProxy(direct, table + JdbcPermits.TABLE_SUFFIX);
                JdbcBackend backend = (JdbcBackend) new JdbcLockStoreProvider()
                        .open(StoreUri.parse(proxy.route(direct)))) {
            backend.release(backend.acquire("only-locks", Duration.ofMillis(500), Wait.none()));
            backend.sweepNow();
            backend.sweepNow();
            assertThat(proxy.requests()).as("requests naming the permit table from a store that only locks, on %s",
                    label).isZero();

            Grant permit = backend.acquirePermit("sem", 1, Duration.ofMillis(500), Wait.none());
            backend.releasePermit(permit);
            int beforeSweep = proxy.requests();
            backend.sweepNow();
            assertThat(proxy.requests()).as("requests naming the permit table from its sweep once a semaphore was"
                    + " used, on %s", label).isGreaterThan(beforeSweep);
        }
    }
}
