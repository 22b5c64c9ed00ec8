package io.distlock.jdbc;

import io.distlock.LockStore;
import io.distlock.tck.LockStoreTck;
import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.fixture.FreePorts;
import org.junit.jupiter.api.extension.ExtendWith;

/** The whole kit against the machine's MariaDB through MySQL Connector/J, on a table of its own. */
@ExtendWith(Databases.class)
class MariaDbTckTest extends LockStoreTck {

    private static final String URI =
            Databases.withOptions(Databases.mysql(), "distlock.table=" + Databases.uniqueTable("tck_my"));

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
        return "jdbc:mysql://127.0.0.1:" + FreePorts.next() + "/test?user=root";
    }
}
