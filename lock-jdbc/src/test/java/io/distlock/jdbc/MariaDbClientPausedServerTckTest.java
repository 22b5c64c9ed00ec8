package io.distlock.jdbc;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The paused-server kit ({@link PausedServerTckBase}) against the machine's MariaDB through the MariaDB client. Slow
 * (about 45 s), like {@link MariaDbClientTckTest}: the default build covers the MariaDB client's renewal bound in
 * {@code RenewTimeoutTest} and the frozen path through Connector/J in {@link MariaDbPausedServerTckTest}; run it with
 * {@code ./mvnw -pl lock-jdbc verify -Dsurefire.excludedGroups= -Dtest=MariaDbClientPausedServerTckTest}.
 */
@Tag("slow")
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
