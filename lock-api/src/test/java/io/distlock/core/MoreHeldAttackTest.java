package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.DistributedSemaphore;
import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockStore;
import io.distlock.spi.Grant;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Attacks (review r9) on a name's state keeping its first hold in a field and the others in a list: one thread holding
 * a lock nested and several permits of a semaphore of the same name string, released in another order than taken;
 * the field's hold lost while others are in the list, with a local waiter queued; a close and virtual threads mixing
 * both kinds of one name. A lock and a semaphore of one name never touch each other's holds, the limit is never
 * exceeded, and nothing is left.
 */
class MoreHeldAttackTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    private final HookedStores stores = new HookedStores("more-held");

    @AfterEach
    void tearDown() {
        stores.close();
    }

    @Test
    void aLockAndPermitsOfOneNameOnOneThreadReleasedOutOfOrderAndLostFromTheField() throws Exception {
        BackendLockStore store = stores.hooked();
        LockStore other = stores.other();
        Lease outer = store.lock("n").acquire();
        Grant lockGrant = grantOf(outer);
        Lease inner = store.lock("n").acquire();
        DistributedSemaphore sem = store.semaphore("n", 3);
        List<Lease> permits = new ArrayList<>();
        List<Grant> grants = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            permits.add(sem.acquire());
            grants.add(grantOf(permits.get(i)));
        }
        assertThat(other.lock("n").tryAcquire()).as("the lock, held nested by this store").isEmpty();
        assertThat(other.semaphore("n", 3).tryAcquire()).as("a fourth permit").isEmpty();

        permits.get(1).release(); // from the list, not the field
        Lease borrowed = other.semaphore("n", 3).tryAcquire().orElseThrow();
        borrowed.release();
        Lease retaken = sem.tryAcquire(BOUND).orElseThrow(); // into the list, behind the third
        Future<Lease> queued = stores.pool.submit(() -> sem.acquire());
        Awaitility.await().atMost(BOUND).until(() -> store.names.queued() == 1);

        // the field's hold (the first permit) is lost in the store while two others are held and one thread queues
        stores.backend.releasePermit(grants.get(0));
        stores.backend.events.lost(grants.get(0), "dropped by the attack");
        assertThat(permits.get(0).isValid()).as("the lost permit").isFalse();
        assertThat(permits.get(2).isValid()).as("a permit from the list").isTrue();
        assertThat(retaken.isValid()).as("the retaken permit").isTrue();
        assertThat(outer.isValid()).as("the lock of the same name, never lost").isTrue();
        Lease fourth = queued.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertThat(other.semaphore("n", 3).tryAcquire()).as("a permit over the limit").isEmpty();

        // the lock's loss takes no permit with it
        inner.release();
        stores.backend.release(lockGrant);
        stores.backend.events.lost(lockGrant, "dropped by the attack");
        assertThat(outer.isValid()).as("the lost lock").isFalse();
        assertThat(permits.get(2).isValid() && retaken.isValid() && fourth.isValid()).as("permits of the name")
                .isTrue();
        assertThatThrownBy(outer::release).isInstanceOf(LockLostException.class);
        assertThatThrownBy(permits.get(0)::release).isInstanceOf(LockLostException.class);
        fourth.release();
        permits.get(2).release();
        retaken.release();
        assertNoneHeldAndAllFree(store, other, "n", 3);
    }

    @Test
    void aCloseWhileOneThreadHoldsBothKindsOfANameAndOthersQueueForEachEndsEveryWaitAndFreesAll() throws Exception {
        BackendLockStore store = stores.hooked();
        LockStore other = stores.other();
        Lease lock = store.lock("c").acquire();
        store.lock("c").acquire(); // nested, never released: the close frees it
        DistributedSemaphore sem = store.semaphore("c", 2);
        Lease a = sem.acquire();
        Lease b = sem.acquire();
        List<Future<?>> waiters = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            waiters.add(stores.pool.submit(() -> store.lock("c").acquire()));
            waiters.add(stores.pool.submit(() -> sem.acquire()));
        }
        Awaitility.await().atMost(BOUND).until(() -> store.names.queued() == 6);
        store.close();
        for (Future<?> w : waiters) {
            assertThatThrownBy(() -> w.get(BOUND.toSeconds(), TimeUnit.SECONDS))
                    .hasCauseInstanceOf(IllegalStateException.class);
        }
        assertThat(lock.isValid() || a.isValid() || b.isValid()).as("a lease of the closed store").isFalse();
        other.lock("c").tryAcquire(BOUND).orElseThrow().release();
        other.semaphore("c", 2).tryAcquire(BOUND).orElseThrow().release();
        other.semaphore("c", 2).tryAcquire(BOUND).orElseThrow().release();
        HookedStores.assertNothingLeft(store);
    }

    @Test
    void virtualThreadsMixingTheLockAndPermitsOfOneNameWithLossesNeverExceedEitherLimit() throws Exception {
        BackendLockStore store = stores.hooked();
        LockStore other = stores.other();
        int limit = 3;
        AtomicInteger lockHolders = new AtomicInteger();
        AtomicInteger permitHolders = new AtomicInteger();
        AtomicInteger mostLock = new AtomicInteger();
        AtomicInteger mostPermits = new AtomicInteger();
        AtomicInteger losses = new AtomicInteger();
        ConcurrentHashMap<Long, Boolean> lockTokens = new ConcurrentHashMap<>();
        AtomicInteger repeatedTokens = new AtomicInteger();
        List<Future<?>> runs = new ArrayList<>();
        ExecutorService virtual = VirtualThreads.executor();
        try {
            for (int t = 0; t < 24; t++) {
                runs.add(virtual.submit(() -> {
                    ThreadLocalRandom r = ThreadLocalRandom.current();
                    for (int i = 0; i < 40; i++) {
                        if (r.nextBoolean()) {
                            Optional<Lease> got = store.lock("m").tryAcquire(BOUND);
                            Lease lease = got.orElseThrow();
                            Lease nested = store.lock("m").acquire();
                            if (lease.isValid()) {
                                mostLock.accumulateAndGet(lockHolders.incrementAndGet(), Math::max);
                                if (lockTokens.put(lease.fencingToken(), true) != null) {
                                    repeatedTokens.incrementAndGet();
                                }
                                lockHolders.decrementAndGet();
                                if (r.nextInt(8) == 0) {
                                    drop(grantOf(lease), false, losses);
                                }
                            }
                            quietly(nested);
                            quietly(lease);
                        } else {
                            DistributedSemaphore sem = store.semaphore("m", limit);
                            List<Lease> mine = new ArrayList<>();
                            int want = 1 + r.nextInt(2);
                            for (int k = 0; k < want; k++) {
                                sem.tryAcquire(Duration.ofMillis(50)).ifPresent(mine::add);
                            }
                            int valid = (int) mine.stream().filter(Lease::isValid).count();
                            mostPermits.accumulateAndGet(permitHolders.addAndGet(valid), Math::max);
                            permitHolders.addAndGet(-valid);
                            if (!mine.isEmpty() && r.nextInt(6) == 0) {
                                drop(grantOf(mine.get(0)), true, losses);
                            }
                            for (int k = mine.size() - 1; k >= 0; k -= 2) { // every other one from the end, then
                                quietly(mine.get(k));                      // the rest from the start
                            }
                            for (int k = 0; k < mine.size(); k++) {
                                if (mine.get(k).state() == io.distlock.LeaseState.HELD) {
                                    quietly(mine.get(k));
                                }
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get(120, TimeUnit.SECONDS);
            }
        } finally {
            virtual.shutdownNow();
        }
        assertThat(mostLock.get()).as("valid lock holders at once").isLessThanOrEqualTo(1);
        assertThat(mostPermits.get()).as("valid permits at once").isLessThanOrEqualTo(limit);
        assertThat(repeatedTokens.get()).as("lock fencing tokens seen twice").isZero();
        assertThat(losses.get()).as("grants the attack dropped").isPositive();
        assertNoneHeldAndAllFree(store, other, "m", limit);
    }

    /** Drops {@code grant} in the store behind the core's back and reports it lost, as a store reports a loss. */
    private void drop(Grant grant, boolean permit, AtomicInteger losses) {
        if (permit ? stores.backend.releasePermit(grant) : stores.backend.release(grant)) {
            stores.backend.events.lost(grant, "dropped by the attack");
            losses.incrementAndGet();
        }
    }

    /** The grant behind {@code lease} (the core's own lease type, read here to drop exactly the caller's own). */
    private static Grant grantOf(Lease lease) {
        try {
            java.lang.reflect.Field field = CoreLease.class.getDeclaredField("hold");
            field.setAccessible(true);
            return ((Hold) field.get(lease)).grant;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static void quietly(Lease lease) {
        try {
            lease.release();
        } catch (LockLostException expected) {
            // dropped by the attack, or released by the nested lease's outermost already
        }
    }

    private static void assertNoneHeldAndAllFree(BackendLockStore store, LockStore other, String name, int limit)
            throws InterruptedException {
        HookedStores.assertNothingLeft(store);
        Lease lock = other.lock(name).tryAcquire(BOUND).orElseThrow();
        List<Lease> all = new ArrayList<>();
        for (int i = 0; i < limit; i++) {
            all.add(other.semaphore(name, limit).tryAcquire(BOUND).orElseThrow());
        }
        assertThat(other.semaphore(name, limit).tryAcquire()).as("a permit over the limit").isEmpty();
        all.forEach(Lease::release);
        lock.release();
    }
}
