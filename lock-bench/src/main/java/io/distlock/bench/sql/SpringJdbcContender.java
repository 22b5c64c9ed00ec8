package io.distlock.bench.sql;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.bench.core.Contender;
import io.distlock.bench.core.HostPort;
import io.distlock.bench.core.Held;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.Role;
import java.util.concurrent.locks.Lock;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * Spring Integration's {@link JdbcLockRegistry} over a {@link DefaultLockRepository} and its {@code INT_LOCK}
 * table, with the library's defaults (10 s time to live, 100 ms between tries while waiting), wired by hand as
 * a Spring context would. Each client is one repository with its own pool and client id.
 */
public final class SpringJdbcContender extends Contender {

    private final CompetitorSql database;
    private final HostPort server;

    /** A contender for the database of {@code database} at {@code server}; the INT_LOCK table must exist. */
    public SpringJdbcContender(CompetitorSql database, HostPort server) {
        super("Spring Integration JdbcLockRegistry", Role.SPRING_INTEGRATION);
        this.database = database;
        this.server = server;
    }

    @Override
    protected LockClient openClient() {
        HikariDataSource pool = Pools.open(database.jdbcUrl(server), "bench-spring-" + database.storeName());
        DefaultLockRepository repository = new DefaultLockRepository(pool);
        repository.setTransactionManager(new DataSourceTransactionManager(pool));
        repository.afterPropertiesSet();
        repository.afterSingletonsInstantiated();
        repository.start();
        return new Client(pool, repository, new JdbcLockRegistry(repository));
    }

    /** One repository and registry. */
    private static final class Client implements LockClient {
        private final HikariDataSource pool;
        private final DefaultLockRepository repository;
        private final JdbcLockRegistry registry;

        Client(HikariDataSource pool, DefaultLockRepository repository, JdbcLockRegistry registry) {
            this.pool = pool;
            this.repository = repository;
            this.registry = registry;
        }

        @Override
        public Held acquire(String name) {
            Lock lock = registry.obtain(name);
            lock.lock();
            return lock::unlock;
        }

        @Override
        public void close() {
            repository.stop();
            repository.close();
            pool.close();
        }
    }
}
