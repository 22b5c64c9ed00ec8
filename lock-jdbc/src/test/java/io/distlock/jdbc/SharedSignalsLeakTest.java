package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stores opened and closed one after another on tables (or databases) of their own leave nothing behind in the
 * JVM-wide maps that share release wake-ups among the stores of one table (found by the r10 safety review: one
 * entry per table ever opened stayed, with its signals).
 */
@ExtendWith(Databases.class)
class SharedSignalsLeakTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.Stores#all")
    void storesOpenedAndClosedLeaveNoSharedSignalsBehind(String label, String firstUri) {
        int tablesBefore = SharedSignals.tables();
        int idsBefore = PostgresNotices.jvmIds();
        for (int i = 0; i < 20; i++) {
            String uri = firstUri.replace("distlock.table=", "distlock.table=t" + i + "_");
            try (LockStore store = BackendStores.open(uri)) {
                store.lock("x").tryAcquire().orElseThrow().release();
            }
        }
        assertThat(SharedSignals.tables()).as("tables with shared signals kept after 20 stores on %s closed", label)
                .isEqualTo(tablesBefore);
        assertThat(PostgresNotices.jvmIds()).as("ids kept after 20 stores on %s closed", label)
                .isEqualTo(idsBefore);
    }
}
