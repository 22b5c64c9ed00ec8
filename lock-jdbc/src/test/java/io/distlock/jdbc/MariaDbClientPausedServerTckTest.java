package io.distlock.jdbc;

import java.time.Duration;
import org.junit.jupiter.api.extension.ExtendWith;

/** The paused-server kit ({@link PausedServerTckBase}) against the machine's MariaDB through the MariaDB client. */
@ExtendWith(Databases.class)
class MariaDbClientPausedServerTckTest extends PausedServerTckBase {

    @Override
    protected String openDirectUri() {
        return Databases.withOptions(Databases.mariadb(),
                "distlock.table=" + Databases.uniqueTable("tck_mc_paused") + "&" + MariaDbPausedServerTckTest.TIMEOUTS);
    }

    /** The same timeouts as {@link MariaDbPausedServerTckTest}'s, so the same bound. */
    @Override
    protected Duration operationTimeout() {
        return MariaDbPausedServerTckTest.OPERATION_TIMEOUT;
    }
}
