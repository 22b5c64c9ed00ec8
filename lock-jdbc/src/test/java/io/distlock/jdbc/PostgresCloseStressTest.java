package io.distlock.jdbc;

import io.distlock.tck.CloseStressTestBase;

/** The kit's close stress (§23, many rounds) against the shared PostgreSQL, in a table of this run's own. */
class PostgresCloseStressTest extends CloseStressTestBase {

    @Override
    protected String storeUri() {
        return Databases.withOptions(Databases.postgres(), "distlock.table=" + Databases.uniqueTable("close"));
    }
}
