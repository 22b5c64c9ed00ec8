package io.distlock.jdbc;

import io.distlock.LockStore;
import io.distlock.tck.LockStoreTck;
import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.fixture.FreePorts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The whole kit against the machine's MariaDB through the MariaDB client ({@code jdbc:mariadb:}). Tagged slow: the
 * same SQL runs through Connector/J in {@link MariaDbTckTest} by default; run it with
 * {@code ./mvnw -pl lock-jdbc verify -Dsurefire.excludedGroups= -Dtest=MariaDbClientTckTest}.
 */
@Tag("slow")
@ExtendWith(Databases.class)
class MariaDbClientTckTest extends LockStoreTck {

    private static final String URI =
            Databases.withOptions(Databases.mariadb(), "distlock.table=" + Databases.uniqueTable("tck_mc"));

    @Override
    protected LockStore newClient() {
        return LockStore.open(URI);
    }

    @Override
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.timeBound();
    }

    @Override
    protected String storeUri() {
        return URI;
    }

    @Override
    protected String unreachableStoreUri() {
        return "jdbc:mariadb://127.0.0.1:" + FreePorts.next() + "/test?user=root";
    }
}
