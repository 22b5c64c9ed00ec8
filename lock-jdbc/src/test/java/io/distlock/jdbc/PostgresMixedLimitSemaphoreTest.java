package io.distlock.jdbc;

import io.distlock.tck.MixedLimitSemaphores;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Three clients of the real PostgreSQL server on one semaphore, limits 2 and 3 in turn, waits and delayed releases. */
class PostgresMixedLimitSemaphoreTest {

    @Test
    void oneLimitAndAtMostThatManyHoldersAcrossClients() throws Exception {
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + Databases.uniqueTable("mixed_pg"));
        new MixedLimitSemaphores().run(uri, "mixed-" + UUID.randomUUID(), 3, 6);
    }
}
