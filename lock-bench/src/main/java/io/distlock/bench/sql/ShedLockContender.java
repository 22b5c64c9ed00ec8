package io.distlock.bench.sql;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.bench.core.Contender;
import io.distlock.bench.core.HostPort;
import io.distlock.bench.core.Held;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.Role;
import java.time.Duration;
import java.util.Optional;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * ShedLock's JDBC provider ({@code JdbcTemplateLockProvider}) with the database's clock ({@code usingDbTime()}, as
 * its documentation recommends) and a 30 s {@code lockAtMostFor}. ShedLock never waits for a lock (it skips), so
 * it runs only the uncontended scenarios.
 */
public final class ShedLockContender extends Contender {

    private final CompetitorSql database;
    private final HostPort server;

    /** A contender for the database of {@code database} at {@code server}; the shedlock table must exist. */
    public ShedLockContender(CompetitorSql database, HostPort server) {
        super("ShedLock JdbcTemplateLockProvider", Role.SHEDLOCK);
        this.database = database;
        this.server = server;
    }

    @Override
    public boolean canWait() {
        return false;
    }

    @Override
    protected LockClient openClient() {
        HikariDataSource pool = Pools.open(database.jdbcUrl(server), "bench-shedlock-" + database.storeName());
        JdbcTemplateLockProvider provider = new JdbcTemplateLockProvider(
                JdbcTemplateLockProvider.Configuration.builder()
                        .withJdbcTemplate(new JdbcTemplate(pool))
                        .usingDbTime()
                        .build());
        return new Client(pool, provider);
    }

    /** One provider with its own pool. */
    private static final class Client implements LockClient {
        private static final Duration AT_MOST = Duration.ofSeconds(30);
        private final HikariDataSource pool;
        private final JdbcTemplateLockProvider provider;

        Client(HikariDataSource pool, JdbcTemplateLockProvider provider) {
            this.pool = pool;
            this.provider = provider;
        }

        @Override
        public Held acquire(String name) {
            Optional<SimpleLock> lock = provider.lock(new LockConfiguration(ClockProvider.now(), name, AT_MOST,
                    Duration.ZERO));
            if (lock.isEmpty()) {
                throw new IllegalStateException("ShedLock found '" + name + "' held; ShedLock never waits");
            }
            return lock.get()::unlock;
        }

        @Override
        public void close() {
            pool.close();
        }
    }
}
