package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The release that releaseAfter schedules for when {@code minHeld} has passed, on the real mem: store: it frees
 * the lock (or permit) then and leaves nothing pending; one that finds the lock gone is quiet and frees nobody
 * else's; closing the store drops pending ones without freeing anything early.
 */
class DelayedReleasesTest {

    private static final LockOptions LONG_LEASE = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(30));
    private static final Duration MIN_HELD = Duration.ofSeconds(2);
    private static final Duration BOUND = Duration.ofSeconds(20);

    private final String space = "mem:delayed-releases-" + UUID.randomUUID();

    @Test
    void aLockAndAPermitAreReleasedWhenMinHeldHasPassedAndNothingStaysPending() throws Exception {
        try (BackendLockStore holder = (BackendLockStore) LockStore.open(space);
             LockStore other = LockStore.open(space)) {
            AtomicInteger lost = new AtomicInteger();
            Lease lock = holder.lock("delayed", LONG_LEASE).acquire();
            Lease permit = holder.semaphore("delayed", 1, LONG_LEASE).acquire();
            lock.onLost(e -> lost.incrementAndGet());
            permit.onLost(e -> lost.incrementAndGet());
            lock.releaseAfter(MIN_HELD);
            permit.releaseAfter(MIN_HELD);
            assertThat(holder.delayedReleasesPending()).as("one per lease until its time").isEqualTo(2);
            Optional<Lease> nextLock = other.lock("delayed", LONG_LEASE).tryAcquire(BOUND);
            Optional<Lease> nextPermit = other.semaphore("delayed", 1, LONG_LEASE).tryAcquire(BOUND);
            assertThat(nextLock).isPresent();
            assertThat(nextPermit).isPresent();
            await().atMost(BOUND).until(() -> holder.delayedReleasesPending() == 0);
            assertThat(lost).as("no lost-lease signal for a lease released on purpose").hasValue(0);
            nextLock.get().release();
            nextPermit.get().release();
        }
    }

    @Test
    void aDelayedReleaseThatFindsTheLockTakenOverIsQuietAndFreesNothing() throws Exception {
        try (BackendLockStore holder = (BackendLockStore) LockStore.open(space);
             LockStore other = LockStore.open(space);
             LockStore third = LockStore.open(space)) {
            AtomicInteger lost = new AtomicInteger();
            Lease lease = holder.lock("taken-over", LONG_LEASE).acquire();
            lease.onLost(e -> lost.incrementAndGet());
            lease.releaseAfter(MIN_HELD);
            assertThat(other.admin().forceRelease("taken-over")).isTrue();
            Lease taker = other.lock("taken-over", LONG_LEASE).tryAcquire().orElseThrow();
            await().atMost(BOUND).until(() -> holder.delayedReleasesPending() == 0);
            assertThat(taker.isValid()).isTrue();
            assertThat(third.lock("taken-over").tryAcquire()).as("the new holder's lock was not freed").isEmpty();
            assertThat(lost).as("the released lease is not reported lost afterwards").hasValue(0);
            taker.release();
        }
    }

    @Test
    void closingTheStoreDropsPendingReleasesWithoutFreeingEarly() throws Exception {
        try (LockStore other = LockStore.open(space)) {
            BackendLockStore holder = (BackendLockStore) LockStore.open(space);
            holder.lock("closed", LONG_LEASE).acquire().releaseAfter(Duration.ofMinutes(1));
            holder.semaphore("closed", 1, LONG_LEASE).acquire().releaseAfter(Duration.ofMinutes(1));
            assertThat(holder.delayedReleasesPending()).isEqualTo(2);
            holder.close();
            assertThat(holder.delayedReleasesPending()).as("dropped at close").isZero();
            assertThat(other.lock("closed").tryAcquire()).as("the store expiry still keeps the lock").isEmpty();
            assertThat(other.semaphore("closed", 1).tryAcquire()).as("and the permit").isEmpty();
        }
    }
}
