package io.distlock.spring.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.LockStore;
import io.distlock.shedlock.TestStores;
import io.distlock.tck.fixture.StoreServers;
import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.integration.support.locks.DistributedLock;
import org.springframework.integration.support.locks.ExpirableLockRegistry;
import org.springframework.integration.support.locks.RenewableLockRegistry;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * Spring Integration's lock contract, checked on Spring Integration's own {@link JdbcLockRegistry} and on
 * {@link DistlockLockRegistry} side by side, both over the shared PostgreSQL: two registries stand for two nodes, and
 * an operator deletes a holder's record behind its back. Each scenario expects the same answers from both: what code
 * written for Spring Integration relies on (reentrancy, expiry of unused locks, a lost lock, interrupts, non-owner
 * unlocks).
 */
class LockRegistryContractTest {

    /** The registries under test: two nodes over one store, and the operator's hand. */
    enum Registry {
        SPRING_INTEGRATION_JDBC {
            @Override
            Nodes open() {
                return new SpringIntegrationJdbcNodes();
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

    /** Two nodes' registries over one store. */
    interface Nodes extends AutoCloseable {
        Node a();

        Node b();

        /** Deletes the holder's record of {@code key} in the store, as an operator would. */
        void breakHold(String key);

        @Override
        void close();
    }

    /** One node's registry, with the three interfaces Spring Integration's registries share. */
    record Node(ExpirableLockRegistry<?> expirable, RenewableLockRegistry<?> renewable) {
        static <R extends ExpirableLockRegistry<?> & RenewableLockRegistry<?>> Node of(R registry) {
            return new Node(registry, registry);
        }

        DistributedLock obtain(String key) {
            return (DistributedLock) expirable.obtain(key);
        }
    }

    private Nodes nodes;
    private final ExecutorService otherThread = Executors.newSingleThreadExecutor();

    @AfterEach
    void close() throws InterruptedException {
        otherThread.shutdownNow();
        otherThread.awaitTermination(10, TimeUnit.SECONDS);
        if (nodes != null) {
            nodes.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Registry.class)
    void reentrantOnOneThreadAndExclusiveAcrossNodes(Registry registry) throws Exception {
        nodes = registry.open();
        DistributedLock mine = nodes.a().obtain("r");
        mine.lock();
        assertThat(mine.tryLock()).as("nested tryLock").isTrue();
        assertThat(tryOnOtherNode("r")).isFalse();
        mine.unlock();
        assertThat(tryOnOtherNode("r")).as("still held after the nested unlock").isFalse();
        mine.unlock();
        assertThat(tryOnOtherNode("r")).as("free after the outermost unlock").isTrue();
    }

    @ParameterizedTest
    @EnumSource(Registry.class)
    void aNestedAcquisitionWithAnotherTimeToLiveReenters(Registry registry) throws Exception {
        nodes = registry.open();
        DistributedLock mine = nodes.a().obtain("ttl");
        mine.lock();
        mine.lock(Duration.ofSeconds(20));
        assertThat(mine.tryLock(Duration.ZERO, Duration.ofSeconds(25))).isTrue();
        assertThat(tryOnOtherNode("ttl")).isFalse();
        mine.unlock();
        mine.unlock();
        assertThat(tryOnOtherNode("ttl")).isFalse();
        mine.unlock();
        assertThat(tryOnOtherNode("ttl")).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Registry.class)
    void aNestedAcquisitionAfterATakeoverIsRefused(Registry registry) throws Exception {
        nodes = registry.open();
        DistributedLock mine = nodes.a().obtain("taken");
        mine.lock();
        nodes.breakHold("taken");
        DistributedLock theirs = nodes.b().obtain("taken");
        assertThat(theirs.tryLock(5, TimeUnit.SECONDS)).as("node B takes the broken lock").isTrue();
        assertThat(mine.tryLock()).as("node A's nested tryLock while node B holds the lock").isFalse();
        theirs.unlock();
        assertThatThrownBy(mine::unlock).isInstanceOf(ConcurrentModificationException.class);
    }

    @ParameterizedTest
    @EnumSource(Registry.class)
    void unlockAfterTheLockWasLostThrowsOnceAtTheOutermostUnlock(Registry registry) throws Exception {
        nodes = registry.open();
        DistributedLock mine = nodes.a().obtain("lost");
        mine.lock();
        assertThat(mine.tryLock()).isTrue();
        nodes.breakHold("lost");
        assertThatThrownBy(() -> nodes.a().renewable().renewLock("lost")).as("renewal finds the lock lost")
                .isInstanceOf(IllegalStateException.class);
        mine.unlock(); // nested: the loss is reported once, at the outermost unlock
        assertThatThrownBy(mine::unlock).isInstanceOf(ConcurrentModificationException.class);
        assertThatThrownBy(mine::unlock).isInstanceOf(IllegalMonitorStateException.class);
        assertThat(tryOnOtherNode("lost")).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Registry.class)
    void expiringUnusedLocksKeepsALockThatIsHeld(Registry registry) throws Exception {
        nodes = registry.open();
        DistributedLock held = nodes.a().obtain("held");
        DistributedLock idle = nodes.a().obtain("idle");
        held.lock();
        letAMillisecondPass();
        nodes.a().expirable().expireUnusedOlderThan(0);
        assertThat(nodes.a().obtain("held")).isSameAs(held);
        assertThat(nodes.a().obtain("idle")).isNotSameAs(idle);
        nodes.a().renewable().renewLock("held");
        held.unlock();
        assertThat(tryOnOtherNode("held")).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Registry.class)
    void expiringUnusedLocksKeepsALockAThreadWaitsFor(Registry registry) throws Exception {
        nodes = registry.open();
        DistributedLock theirs = nodes.b().obtain("waited");
        theirs.lock();
        DistributedLock awaited = nodes.a().obtain("waited");
        AtomicReference<Thread> waiter = new AtomicReference<>();
        Future<?> waits = otherThread.submit(() -> {
            waiter.set(Thread.currentThread());
            awaited.lock();
            try {
                nodes.a().renewable().renewLock("waited");
            } finally {
                awaited.unlock();
            }
            return null;
        });
        awaitParked(waiter);
        letAMillisecondPass();
        nodes.a().expirable().expireUnusedOlderThan(0);
        assertThat(nodes.a().obtain("waited")).as("the lock a local thread waits for is kept").isSameAs(awaited);
        theirs.unlock();
        waits.get(15, TimeUnit.SECONDS);
    }

    @ParameterizedTest
    @EnumSource(Registry.class)
    void interruptsAreHonouredByLockInterruptiblyOnlyAndLeaveNothingHeld(Registry registry) throws Exception {
        nodes = registry.open();
        DistributedLock mine = nodes.a().obtain("interrupts");
        Thread.currentThread().interrupt();
        assertThatThrownBy(mine::lockInterruptibly).isInstanceOf(InterruptedException.class);
        assertThat(tryOnOtherNode("interrupts")).as("nothing held after the refusal").isTrue();

        Thread.currentThread().interrupt();
        mine.lock(); // lock() is not interruptible: it acquires and keeps the flag
        try {
            assertThat(Thread.interrupted()).as("the flag is kept").isTrue();
            assertThat(tryOnOtherNode("interrupts")).isFalse();
        } finally {
            mine.unlock();
        }

        DistributedLock theirs = nodes.b().obtain("interrupts");
        theirs.lock();
        AtomicReference<Thread> waiter = new AtomicReference<>();
        Future<Boolean> waits = otherThread.submit(() -> {
            waiter.set(Thread.currentThread());
            try {
                mine.lockInterruptibly();
                mine.unlock();
                return false;
            } catch (InterruptedException expected) {
                return true;
            }
        });
        awaitParked(waiter);
        waiter.get().interrupt();
        assertThat(waits.get(10, TimeUnit.SECONDS)).as("the waiter got InterruptedException").isTrue();
        theirs.unlock();
        assertThat(tryOnOtherNode("interrupts")).as("the interrupted waiter left nothing held").isTrue();
    }

    @ParameterizedTest
    @EnumSource(Registry.class)
    void unlockByAThreadThatDoesNotHoldTheLockIsRefused(Registry registry) throws Exception {
        nodes = registry.open();
        DistributedLock mine = nodes.a().obtain("owner");
        assertThatThrownBy(mine::unlock).isInstanceOf(IllegalMonitorStateException.class);
        mine.lock();
        try {
            Future<?> stranger = otherThread.submit(() -> {
                mine.unlock();
                return null;
            });
            assertThatThrownBy(() -> stranger.get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(IllegalMonitorStateException.class);
            assertThat(tryOnOtherNode("owner")).as("still held").isFalse();
        } finally {
            mine.unlock();
        }
    }

    /** One tryLock of {@code key} by node B from another thread (unlocked at once if it succeeds). */
    private boolean tryOnOtherNode(String key) throws Exception {
        DistributedLock theirs = nodes.b().obtain(key);
        return CompletableFuture.supplyAsync(() -> {
            boolean got = theirs.tryLock();
            if (got) {
                theirs.unlock();
            }
            return got;
        }).get(20, TimeUnit.SECONDS);
    }

    /** Waits (10 s at most) until the thread {@code waiter} names is started and parked, waiting for a lock. */
    private static void awaitParked(AtomicReference<Thread> waiter) {
        await().atMost(Duration.ofSeconds(10)).until(() -> waiter.get() != null
                && (waiter.get().getState() == Thread.State.WAITING
                        || waiter.get().getState() == Thread.State.TIMED_WAITING));
    }

    /** Registries age locks in milliseconds: let one pass so that "older than 0" is true of the idle ones. */
    private static void letAMillisecondPass() {
        long start = System.currentTimeMillis();
        await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(1))
                .until(() -> System.currentTimeMillis() > start + 1);
    }

    /** Spring Integration's JDBC registries, one per node with its own client id, over a table of this test's own. */
    static final class SpringIntegrationJdbcNodes implements Nodes {
        private final String prefix = "si_" + TestStores.unique() + "_";
        private final SimpleDriverDataSource dataSource;
        private final JdbcTemplate jdbc;
        private final Node a;
        private final Node b;

        SpringIntegrationJdbcNodes() {
            dataSource = new SimpleDriverDataSource(new org.postgresql.Driver(), StoreServers.postgres());
            jdbc = new JdbcTemplate(dataSource);
            jdbc.execute("CREATE TABLE " + prefix + "LOCK (LOCK_KEY CHAR(36) NOT NULL, REGION VARCHAR(100) NOT NULL,"
                    + " CLIENT_ID CHAR(36), CREATED_DATE TIMESTAMP NOT NULL, EXPIRED_AFTER TIMESTAMP NOT NULL,"
                    + " CONSTRAINT " + prefix + "LOCK_PK PRIMARY KEY (LOCK_KEY, REGION))");
            a = Node.of(registry());
            b = Node.of(registry());
        }

        private JdbcLockRegistry registry() {
            DefaultLockRepository repository = new DefaultLockRepository(dataSource);
            repository.setPrefix(prefix);
            repository.setTransactionManager(new DataSourceTransactionManager(dataSource));
            repository.afterPropertiesSet();
            repository.afterSingletonsInstantiated();
            JdbcLockRegistry registry = new JdbcLockRegistry(repository);
            registry.setIdleBetweenTries(Duration.ofMillis(20));
            return registry;
        }

        @Override
        public Node a() {
            return a;
        }

        @Override
        public Node b() {
            return b;
        }

        @Override
        public void breakHold(String key) {
            assertThat(jdbc.update("DELETE FROM " + prefix + "LOCK")).isEqualTo(1);
        }

        @Override
        public void close() {
            jdbc.execute("DROP TABLE " + prefix + "LOCK");
        }
    }

    /** Two distlock registries, each over its own store client, over one PostgreSQL table. */
    static final class DistlockNodes implements Nodes {
        private final LockStore storeA;
        private final LockStore storeB;
        private final Node a;
        private final Node b;

        DistlockNodes() {
            String uri = TestStores.uri("postgres", "si_contract");
            storeA = LockStore.open(uri);
            storeB = LockStore.open(uri);
            a = Node.of(new DistlockLockRegistry(storeA, "si:"));
            b = Node.of(new DistlockLockRegistry(storeB, "si:"));
        }

        @Override
        public Node a() {
            return a;
        }

        @Override
        public Node b() {
            return b;
        }

        @Override
        public void breakHold(String key) {
            assertThat(storeB.admin().forceRelease("si:" + key)).isTrue();
        }

        @Override
        public void close() {
            storeA.close();
            storeB.close();
        }
    }
}
