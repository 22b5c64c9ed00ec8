package io.distlock.shedlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.LockStore;
import io.distlock.tck.fixture.StoreServers;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import net.javacrumbs.shedlock.support.KeepAliveLockProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * ShedLock's provider contract, checked on ShedLock's own {@link JdbcTemplateLockProvider} (database time) and on
 * {@link DistlockLockProvider} side by side, two providers as two nodes over the shared PostgreSQL, each scenario
 * expecting the same answers: a lock handed out is held (also by a provider that was retired meanwhile: closed,
 * for ours), {@code lockAtMostFor} frees the lock of a node that never unlocks, {@code lockAtLeastFor} keeps it
 * after a short task, extension, and ShedLock's {@link KeepAliveLockProvider} over each.
 */
class LockProviderContractTest {

    /** The providers under test. */
    enum Provider {
        SHEDLOCK_JDBC_TEMPLATE {
            @Override
            Nodes open() {
                return new JdbcTemplateNodes();
            }
        },
        DISTLOCK {
            @Override
            Nodes open() {
                return new DistlockNodes();
            }
        };

        abstract Nodes open();
    }

    /** Two nodes' providers over one store. */
    interface Nodes extends AutoCloseable {
        ExtensibleLockProvider a();

        ExtensibleLockProvider b();

        /** Ends node A's provider as its application would at shutdown (ShedLock's own providers have no close). */
        void retireA();

        @Override
        void close();
    }

    private Nodes nodes;
    private final String name = "task-" + TestStores.unique();

    @AfterEach
    void close() {
        if (nodes != null) {
            nodes.close();
        }
    }

    private LockConfiguration config(Duration atMost, Duration atLeast) {
        return new LockConfiguration(Instant.now(), name, atMost, atLeast);
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void aLockHandedOutIsHeldUntilUnlocked(Provider provider) {
        nodes = provider.open();
        SimpleLock lock = nodes.a().lock(config(Duration.ofSeconds(30), Duration.ZERO)).orElseThrow();
        assertThat(nodes.b().lock(config(Duration.ofSeconds(30), Duration.ZERO))).as("node B while A holds").isEmpty();
        assertThat(nodes.a().lock(config(Duration.ofSeconds(30), Duration.ZERO))).as("not reentrant").isEmpty();
        lock.unlock();
        nodes.b().lock(config(Duration.ofSeconds(30), Duration.ZERO)).orElseThrow().unlock();
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void aRetiredProviderHandsOutNoLockItDoesNotHold(Provider provider) {
        nodes = provider.open();
        nodes.retireA();
        Optional<SimpleLock> handedOut = lockUnlessRefused(nodes.a(), config(Duration.ofSeconds(30), Duration.ZERO));
        if (handedOut.isPresent()) {
            assertThat(nodes.b().lock(config(Duration.ofSeconds(30), Duration.ZERO)))
                    .as("node B while node A's provider says it holds the lock").isEmpty();
            handedOut.get().unlock();
        }
        nodes.b().lock(config(Duration.ofSeconds(30), Duration.ZERO)).orElseThrow().unlock();
    }

    /** A lock from {@code provider}, or empty if it refused with IllegalStateException because it is closed. */
    /** Waits (15 s at most) until node B gets the lock and releases it again. */
    private void awaitNodeBGetsAndReleasesTheLock() {
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
                .until(() -> nodes.b().lock(config(Duration.ofSeconds(30), Duration.ZERO))
                        .map(l -> {
                            l.unlock();
                            return true;
                        }).orElse(false));
    }

    private static Optional<SimpleLock> lockUnlessRefused(LockProvider provider, LockConfiguration config) {
        try {
            return provider.lock(config);
        } catch (IllegalStateException refused) {
            assertThat(refused).hasMessageContaining("closed");
            return Optional.empty();
        }
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void lockAtMostForFreesTheLockOfANodeThatNeverUnlocks(Provider provider) {
        nodes = provider.open();
        assertThat(nodes.a().lock(config(Duration.ofMillis(800), Duration.ZERO))).isPresent();
        assertThat(nodes.b().lock(config(Duration.ofSeconds(30), Duration.ZERO))).isEmpty();
        awaitNodeBGetsAndReleasesTheLock();
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void lockAtLeastForKeepsTheLockAfterAShortTask(Provider provider) {
        nodes = provider.open();
        nodes.a().lock(config(Duration.ofSeconds(30), Duration.ofSeconds(1))).orElseThrow().unlock();
        assertThat(nodes.b().lock(config(Duration.ofSeconds(30), Duration.ZERO))).as("within lockAtLeastFor")
                .isEmpty();
        awaitNodeBGetsAndReleasesTheLock();
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void anExtendedLockIsHeldPastItsFirstLockAtMostFor(Provider provider) {
        nodes = provider.open();
        SimpleLock lock = nodes.a().lock(config(Duration.ofSeconds(1), Duration.ZERO)).orElseThrow();
        SimpleLock extended = lock.extend(Duration.ofSeconds(30), Duration.ZERO).orElseThrow();
        long until = System.nanoTime() + Duration.ofMillis(1500).toNanos();
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100)).until(() -> {
            assertThat(nodes.b().lock(config(Duration.ofSeconds(30), Duration.ZERO))).isEmpty();
            return System.nanoTime() - until > 0;
        });
        assertThatThrownBy(() -> lock.extend(Duration.ofSeconds(30), Duration.ZERO))
                .as("a lock that was extended is replaced by its extension").isInstanceOf(IllegalStateException.class);
        extended.unlock();
        nodes.b().lock(config(Duration.ofSeconds(30), Duration.ZERO)).orElseThrow().unlock();
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void keepAliveLockProviderOverEitherHandsOutAndFreesTheLock(Provider provider) {
        nodes = provider.open();
        ScheduledExecutorService keepAlive = Executors.newSingleThreadScheduledExecutor();
        try {
            LockProvider kept = new KeepAliveLockProvider(nodes.a(), keepAlive);
            // KeepAliveLockProvider takes lockAtMostFor from 30 s on and extends at half of it: this checks that it
            // wraps either provider
            SimpleLock lock = kept.lock(config(Duration.ofSeconds(30), Duration.ZERO)).orElseThrow();
            assertThat(nodes.b().lock(config(Duration.ofSeconds(30), Duration.ZERO))).isEmpty();
            lock.unlock();
            nodes.b().lock(config(Duration.ofSeconds(30), Duration.ZERO)).orElseThrow().unlock();
        } finally {
            keepAlive.shutdownNow();
        }
    }

    /** ShedLock's JDBC providers with database time, over a table of this test's own. */
    static final class JdbcTemplateNodes implements Nodes {
        private final String table = "shedlock_" + TestStores.unique();
        private final JdbcTemplate jdbc;
        private final ExtensibleLockProvider a;
        private final ExtensibleLockProvider b;

        JdbcTemplateNodes() {
            jdbc = new JdbcTemplate(new SimpleDriverDataSource(new org.postgresql.Driver(), StoreServers.postgres()));
            jdbc.execute("CREATE TABLE " + table + " (name VARCHAR(64) NOT NULL, lock_until TIMESTAMP NOT NULL,"
                    + " locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))");
            a = provider();
            b = provider();
        }

        private ExtensibleLockProvider provider() {
            return new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration.builder()
                    .withJdbcTemplate(jdbc).withTableName(table).usingDbTime().build());
        }

        @Override
        public ExtensibleLockProvider a() {
            return a;
        }

        @Override
        public ExtensibleLockProvider b() {
            return b;
        }

        @Override
        public void retireA() {
            // nothing to end: ShedLock's JDBC provider holds no resources of its own
        }

        @Override
        public void close() {
            jdbc.execute("DROP TABLE " + table);
        }
    }

    /** Two distlock providers, each over its own store client, over one PostgreSQL table. */
    static final class DistlockNodes implements Nodes {
        private final LockStore storeA;
        private final LockStore storeB;
        private final DistlockLockProvider a;
        private final DistlockLockProvider b;

        DistlockNodes() {
            String uri = TestStores.uri("postgres", "shedlock_contract");
            storeA = LockStore.open(uri);
            storeB = LockStore.open(uri);
            a = new DistlockLockProvider(storeA);
            b = new DistlockLockProvider(storeB);
        }

        @Override
        public ExtensibleLockProvider a() {
            return a;
        }

        @Override
        public ExtensibleLockProvider b() {
            return b;
        }

        @Override
        public void retireA() {
            a.close();
        }

        @Override
        public void close() {
            a.close();
            b.close();
            storeA.close();
            storeB.close();
        }
    }
}
