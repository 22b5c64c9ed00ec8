package io.distlock.spring.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.LockLostException;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DistlockLockRegistryTest {

    private final LockStore store = LockStore.open("mem:registry-" + UUID.randomUUID());
    private final DistlockLockRegistry registry = new DistlockLockRegistry(store, "si:");

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void keysMustBeStrings() {
        assertThatThrownBy(() -> registry.obtain(42)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("String").hasMessageContaining("java.lang.Integer");
        assertThatThrownBy(() -> registry.obtain(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void equalKeysGiveOneLockNamedWithThePrefix() {
        assertThat(registry.obtain("a")).isSameAs(registry.obtain("a"));
        assertThat(registry.obtain("a").name()).isEqualTo("si:a");
    }

    @Test
    void reentrantPerThreadWithOneFencingTokenAndExclusiveAcrossThreads() throws Exception {
        DistlockLock lock = registry.obtain("r");
        lock.lock();
        long token = lock.currentLease().fencingToken();
        assertThat(lock.tryLock()).isTrue();
        assertThat(lock.currentLease().fencingToken()).isEqualTo(token);
        assertThat(CompletableFuture.supplyAsync(() -> tryLockQuickly(lock)).get(10, TimeUnit.SECONDS)).isFalse();
        lock.unlock();
        assertThat(CompletableFuture.supplyAsync(() -> tryLockQuickly(lock)).get(10, TimeUnit.SECONDS)).isFalse();
        lock.unlock();
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class)
                .hasMessageContaining("si:r");
        assertThatThrownBy(lock::currentLease).isInstanceOf(IllegalMonitorStateException.class);
    }

    private static boolean tryLockQuickly(DistlockLock lock) {
        try {
            boolean got = lock.tryLock(50, TimeUnit.MILLISECONDS);
            if (got) {
                lock.unlock();
            }
            return got;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    void timeToLiveSetsTheLeaseTimeOfThatAcquisition() throws Exception {
        DistlockLock lock = registry.obtain("ttl");
        assertThat(lock.tryLock(Duration.ZERO, Duration.ofSeconds(5))).isTrue();
        try {
            registry.renewLock("ttl", Duration.ofSeconds(8));
            registry.renewLock("ttl");
            assertThat(lock.currentLease().isValid()).isTrue();
        } finally {
            lock.unlock();
        }
    }

    @Test
    void renewingALockNotHeldIsRefused() {
        assertThatThrownBy(() -> registry.renewLock("never-obtained")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not obtained");
        registry.obtain("not-held");
        assertThatThrownBy(() -> registry.renewLock("not-held")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("does not hold");
    }

    @Test
    void unlockOfALostLeaseFreesItAndReportsTheLoss() {
        DistlockLock lock = registry.obtain("lost");
        lock.lock();
        assertThat(store.admin().forceRelease("si:lost")).isTrue();
        assertThatThrownBy(lock::unlock).isInstanceOf(ConcurrentModificationException.class)
                .hasMessageContaining("si:lost").hasCauseInstanceOf(LockLostException.class);
        assertThat(lock.tryLock()).isTrue();
        lock.unlock();
    }

    @Test
    void expiringUnusedLocksForgetsOnlyThoseNotHeld() {
        DistlockLock held = registry.obtain("held");
        DistlockLock idle = registry.obtain("idle");
        held.lock();
        try {
            registry.expireUnusedOlderThan(0);
            assertThat(registry.obtain("held")).isSameAs(held);
            assertThat(registry.obtain("idle")).isNotSameAs(idle);
        } finally {
            held.unlock();
        }
    }

    @Test
    void newConditionIsRefusedWithAReason() {
        assertThatThrownBy(() -> registry.obtain("c").newCondition())
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("another process");
    }
}
