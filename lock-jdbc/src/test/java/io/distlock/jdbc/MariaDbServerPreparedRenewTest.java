package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.time.Duration;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Connector/J's bounded renewal ({@code SET STATEMENT max_statement_time = N FOR ...} on MariaDB) also renews when
 * the application's URL asks for server-side prepared statements, and the cache of them.
 */
@ExtendWith(Databases.class)
class MariaDbServerPreparedRenewTest {

    @ParameterizedTest
    @ValueSource(strings = {"useServerPrepStmts=true", "useServerPrepStmts=true&cachePrepStmts=true"})
    void aLeaseRenewsWithServerPreparedStatements(String option) {
        String uri = Databases.withOptions(Databases.mysql(), option + "&distlock.table="
                + Databases.uniqueTable("srvprep"));
        try (LockStore store = LockStore.open(uri)) {
            Lease lease = store.lock("srvprep").tryAcquire().orElseThrow();
            for (int i = 0; i < 6; i++) {
                assertThat(lease.extend(Duration.ofSeconds(30))).as("extend %s", i).isTrue();
            }
            lease.release();
        }
    }
}
