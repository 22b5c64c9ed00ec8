package io.distlock.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.StoreOptions;
import io.distlock.StoreUnavailableException;
import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.ServerProcess;
import io.distlock.tck.fixture.StoreServers;
import io.distlock.tck.fixture.TempDirs;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LockStoreMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final LockStoreMetrics metrics = new LockStoreMetrics("test");
    private LockStore store;

    private LockStore open(String uri) {
        metrics.bindTo(registry);
        store = metrics.open(uri);
        return store;
    }

    private LockStore mem() {
        return open("mem:metrics-" + UUID.randomUUID());
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private long acquires(String outcome) {
        return registry.get("distlock.acquire").tag("store", "test").tag("outcome", outcome).timer().count();
    }

    private double lost(String cause) {
        return registry.get("distlock.lost").tag("cause", cause).counter().count();
    }

    private double gauge(String name) {
        return registry.get(name).gauge().value();
    }

    @Test
    void callerErrorsAreCountedAsFailedNotAsTheStoreUnavailable() {
        LockStore store = mem();
        DistributedLock lock = store.lock("bad-calls");
        assertThatThrownBy(() -> lock.tryAcquire(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
        Lease outer = lock.tryAcquire().orElseThrow();
        assertThatThrownBy(() -> store.lock("bad-calls", LockOptions.defaults().withAutoRenew(false)).tryAcquire())
                .as("a nested acquisition with other options").isInstanceOf(IllegalArgumentException.class);
        outer.release();
        assertThat(acquires("unavailable")).as("the store was reachable all along").isZero();
        assertThat(acquires("failed")).isEqualTo(2);
        assertThat(acquires("acquired")).isEqualTo(1);
        assertThat(gauge("distlock.waiters")).isZero();
    }

    @Test
    void aStoreNameIsRequired() {
        assertThatThrownBy(() -> new LockStoreMetrics(" ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("storeName");
    }

    @Test
    void acquiredLeasesAreTimedCountedAndTheirHoldTimed() throws Exception {
        LockStore store = mem();
        try (Lease lease = store.lock("a").acquire()) {
            assertThat(gauge("distlock.leases.held")).isEqualTo(1.0);
            try (Lease nested = store.lock("a").acquire()) {
                assertThat(nested.fencingToken()).isEqualTo(lease.fencingToken());
                assertThat(gauge("distlock.leases.held")).as("a nested lease is the same hold").isEqualTo(1.0);
            }
        }
        assertThat(acquires("acquired")).isEqualTo(2);
        assertThat(gauge("distlock.leases.held")).isZero();
        assertThat(registry.get("distlock.held").timer().count()).isEqualTo(1);
    }

    @Test
    void attemptsThatFindTheLockTakenAreTimedOut() throws Exception {
        LockStore store = mem();
        Lease other = CompletableFuture.supplyAsync(() -> store.lock("busy").tryAcquire().orElseThrow())
                .get(10, TimeUnit.SECONDS);
        assertThat(store.lock("busy").tryAcquire()).isEmpty();
        assertThat(store.lock("busy").tryAcquire(Duration.ofMillis(50))).isEmpty();
        assertThat(acquires("timed_out")).isEqualTo(2);
        assertThat(registry.get("distlock.acquire").tag("outcome", "timed_out").timer()
                .totalTime(TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(50);
        other.release();
    }

    @Test
    void threadsBlockedInAcquireAreLocalWaiters() throws Exception {
        LockStore store = mem();
        Lease held = store.lock("queue").acquire();
        CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> {
            try {
                store.lock("queue").acquire().release();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> gauge("distlock.waiters") == 1.0);
        held.release();
        waiter.get(10, TimeUnit.SECONDS);
        assertThat(gauge("distlock.waiters")).isZero();
        assertThat(acquires("acquired")).isEqualTo(2);
    }

    @Test
    void theLockViewGoesThroughTheMetricsToo() {
        Lock lock = mem().lock("view").asLock();
        lock.lock();
        assertThat(gauge("distlock.leases.held")).isEqualTo(1.0);
        lock.unlock();
        assertThat(acquires("acquired")).isEqualTo(1);
    }

    @Test
    void explicitRenewalsAreCounted() throws Exception {
        try (Lease lease = mem().lock("renewed").acquire()) {
            assertThat(lease.extend(Duration.ofSeconds(10))).isTrue();
            assertThat(lease.extend(Duration.ofSeconds(10))).isTrue();
        }
        assertThat(registry.get("distlock.renewals").tag("trigger", "explicit").counter().count()).isEqualTo(2.0);
    }

    @Test
    void locksAskedForByNameGetTheOpenedStoresDefaultsAndItsFeatures() throws Exception {
        LockOptions defaults = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(7));
        store = metrics.open("mem:metrics-" + UUID.randomUUID(), StoreOptions.defaults().withLockOptions(defaults));
        assertThat(store.defaultOptions()).isEqualTo(defaults);
        assertThat(store.lock("by-name").options()).isEqualTo(defaults);
        assertThat(store.semaphore("by-name", 2).options()).isEqualTo(defaults);
        assertThat(store.features().semaphores()).isTrue();
    }

    @Test
    void aLeaseRemovedBehindItsBackIsLostWithCauseRemoved() throws Exception {
        LockStore store = mem();
        DistributedLock lock = store.lock("removed", LockOptions.defaults().withLeaseTime(Duration.ofMillis(600)));
        Lease lease = lock.acquire();
        assertThat(store.admin().forceRelease("removed")).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> lost("removed") == 1.0);
        assertThat(gauge("distlock.leases.held")).isZero();
        assertThat(registry.get("distlock.held").timer().count()).isEqualTo(1);
        assertThatThrownBy(lease::release).isInstanceOf(io.distlock.LockLostException.class);
        assertThat(lost("removed")).as("counted once").isEqualTo(1.0);
    }

    @Test
    void leasesHeldWhenTheStoreClosesAreLostWithCauseStoreClosed() throws Exception {
        LockStore store = mem();
        store.lock("at-close").acquire();
        store.close();
        assertThat(lost("store_closed")).isEqualTo(1.0);
        assertThat(gauge("distlock.leases.held")).isZero();
    }

    @Test
    void onRedisALeaseThatIsNotRenewedExpiresWithCauseExpired() throws Exception {
        LockStore store = open(StoreServers.redis() + "?keyPrefix=metrics-" + UUID.randomUUID() + ":");
        Lease lease = store.lock("expiring", LockOptions.defaults().withLeaseTime(Duration.ofMillis(300))
                .withAutoRenew(false)).acquire();
        assertThat(acquires("acquired")).isEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> lost("expired") == 1.0);
        assertThat(gauge("distlock.leases.held")).isZero();
        assertThatThrownBy(lease::release).isInstanceOf(io.distlock.LockLostException.class);
        try (Lease again = store.lock("expiring").acquire()) {
            assertThat(again.fencingToken()).isGreaterThan(lease.fencingToken());
        }
        assertThat(acquires("acquired")).isEqualTo(2);
        assertThat(registry.get("distlock.held").timer().count()).isEqualTo(2);
    }

    @Test
    void onRedisBackgroundRenewalRoundTripsAreCounted() throws Exception {
        LockStore store = open(StoreServers.redis() + "?keyPrefix=metrics-" + UUID.randomUUID() + ":");
        try (Lease lease = store.lock("renewed-in-background",
                LockOptions.defaults().withLeaseTime(Duration.ofMillis(600))).acquire()) {
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    registry.get("distlock.renewals").tag("trigger", "background").counter().count() >= 3);
            assertThat(lease.isValid()).isTrue();
        }
        assertThat(registry.get("distlock.renewals.failed").counter().count()).isZero();
    }

    @Test
    void onAPausedRedisAttemptsAreUnavailable() {
        Path binary = ServerProcess.findBinary("redis-server", "/usr/bin/redis-server")
                .orElseThrow(() -> new IllegalStateException("redis-server is needed: apt-get install redis-server"));
        Path dir = TempDirs.create("metrics-redis");
        int port = FreePorts.next();
        try (ServerProcess redis = new ServerProcess("redis-server", List.of(binary.toString(), "--port",
                Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir",
                dir.toString()), dir, port).start()) {
            LockStore store = open("redis://127.0.0.1:" + port + "?timeout=300ms");
            Lease held = store.lock("held-while-down", LockOptions.defaults().withLeaseTime(Duration.ofSeconds(6)))
                    .tryAcquire().orElseThrow();
            redis.pause();
            try {
                assertThatThrownBy(() -> store.lock("down").tryAcquire())
                        .isInstanceOf(StoreUnavailableException.class);
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> registry.get("distlock.renewals.failed").counter().count() >= 1);
            } finally {
                redis.resume();
            }
            held.release();
            assertThat(acquires("unavailable")).isEqualTo(1);
            assertThat(gauge("distlock.waiters")).isZero();
            store.close();
            this.store = null;
        }
    }
}
