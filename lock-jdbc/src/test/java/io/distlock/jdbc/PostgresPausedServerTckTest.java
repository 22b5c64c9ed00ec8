package io.distlock.jdbc;

import java.time.Duration;
import org.junit.jupiter.api.extension.ExtendWith;

/** The paused-server kit ({@link PausedServerTckBase}) against the machine's PostgreSQL. */
@ExtendWith(Databases.class)
class PostgresPausedServerTckTest extends PausedServerTckBase {

    /** Short timeouts, so the §14.3 bound is tight: a 3 s wait for a pooled connection, 5 s per read. */
    static final String TIMEOUTS = "distlock.connectTimeoutMillis=3s&distlock.socketTimeoutMillis=5s";

    /**
     * One operation at {@link #TIMEOUTS}: the 3 s wait for a pooled connection, overrun by at most the pool's 1 s
     * check of an idle connection (pgjdbc's isValid honours it), then one read of at most 5 s (socketTimeout).
     */
    static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(9);

    @Override
    protected String openDirectUri() {
        return Databases.withOptions(Databases.postgres(),
                "distlock.table=" + Databases.uniqueTable("tck_pg_paused") + "&" + TIMEOUTS);
    }

    /** {@link #OPERATION_TIMEOUT}: the URI's timeouts. */
    @Override
    protected Duration operationTimeout() {
        return OPERATION_TIMEOUT;
    }
}
