package io.distlock.jdbc;

import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.StoreUriTck;
import io.distlock.tck.fixture.FreePorts;
import org.junit.jupiter.api.extension.ExtendWith;

/** The whole kit against the machine's MariaDB through MySQL Connector/J, on a table of its own. */
@ExtendWith(Databases.class)
class MariaDbTckTest extends StoreUriTck {

    private static final String URI =
            Databases.withOptions(Databases.mysql(), "distlock.table=" + Databases.uniqueTable("tck_my"));

    MariaDbTckTest() {
        super(URI, StoreCapabilities.timeBound());
    }

    @Override
    protected String unreachableStoreUri() {
        return "jdbc:mysql://127.0.0.1:" + FreePorts.next() + "/test?user=root";
    }
}
