package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LeaseState;
import io.distlock.LockLostException;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Attacks on a semaphore hold taken outside the gate (a limit other than the threads there use, C26's fix): lost,
 * released with releaseAfter, extended, walked at close and at connection events, and the name taking the outside
 * hold's limit while it is held. Each checks that the outside hold frees no place and that nothing is left.
 */
class OutsideHoldAttacksTest {

    private static final Duration LONG = Duration.ofSeconds(20);

    private final HookedStores stores = new HookedStores("outside");

    @AfterEach
    void tearDown() {
        stores.close();
    }

    /**
     * A hold of "s" with a limit of 2 taken outside the gate: a thread stating 3 is through the gate (parked before
     * its store call) when it is taken, then the store refuses that thread. The gate's limit stays 3, nobody through.
     */
    private Lease outsideHoldOfTwo(BackendLockStore store) throws Exception {
        return outsideHoldOfTwo(store, io.distlock.LockOptions.defaults());
    }

    private Lease outsideHoldOfTwo(BackendLockStore store, io.distlock.LockOptions options) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        stores.backend.permitGate = gate;
        Future<Optional<Lease>> three = stores.pool.submit(() -> store.semaphore("s", 3).tryAcquire());
        assertThat(stores.backend.permitEntered.await(20, TimeUnit.SECONDS)).isTrue();
        stores.backend.permitGate = null;
        Lease outside;
        try {
            outside = store.semaphore("s", 2, options).tryAcquire().orElseThrow();
        } finally {
            gate.countDown();
        }
        assertThat(three).as("refused by the store: the holder recorded 2").failsWithin(LONG);
        return outside;
    }

    /**
     * The gate's javadoc: "Only the threads through the gate contend in the store, so many local waiters cost the
     * store at most {@code limit} contenders, and they get the name in arrival order." Waiting acquires stating the
     * holders' limit while one thread of another limit only contends queue behind it (C27: they went OUTSIDE and
     * waited in the store for their whole wait, never joining the gate: 4 threads of a limit of 2 contended at once,
     * and more joined through the gate).
     */
    @Test
    void waitersStatingTheHoldersLimitWhileAnotherLimitIsThroughContendBesideTheGate() throws Exception {
        LockStore other = stores.other();
        Lease a = other.semaphore("s", 2).acquire();
        Lease b = other.semaphore("s", 2).acquire(); // full, the holders recorded 2
        BackendLockStore store = stores.hooked();
        CountDownLatch gate = new CountDownLatch(1);
        stores.backend.permitGate = gate;
        Future<Optional<Lease>> three = stores.pool.submit(() -> store.semaphore("s", 3).tryAcquire());
        assertThat(stores.backend.permitEntered.await(20, TimeUnit.SECONDS)).isTrue();
        stores.backend.permitGate = null;
        List<Future<?>> twos = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            twos.add(stores.pool.submit(() -> takeAndGiveBack(store)));
        }
        // they queue behind the thread of another limit, which only contends: none of them is in the store
        Awaitility.await().atMost(LONG).until(() -> store.names.queued() == 4);
        assertThat(stores.backend.permitCalls.get()).as("only the thread stating 3 is in the store").isEqualTo(1);
        gate.countDown();
        assertThat(three).as("refused by the store").failsWithin(LONG);
        // the name takes the limit of 2: two of them contend, two stay queued
        Awaitility.await().atMost(LONG).until(() -> stores.backend.permitCalls.get() == 2 && store.names.queued() == 2);
        for (int i = 0; i < 2; i++) { // later callers with the same limit queue behind them
            twos.add(stores.pool.submit(() -> takeAndGiveBack(store)));
        }
        Awaitility.await().atMost(LONG).until(() -> stores.backend.permitCalls.get() + store.names.queued() == 6);
        int contending = stores.backend.permitCalls.get();
        a.release();
        b.release();
        for (Future<?> f : twos) { // each takes a permit in turn and gives it back
            f.get(20, TimeUnit.SECONDS);
        }
        assertThat(contending).as("this store's threads contending in the store at once for a limit of 2")
                .isLessThanOrEqualTo(2);
    }

    private static Void takeAndGiveBack(LockStore store) throws InterruptedException {
        store.semaphore("s", 2).acquire().release();
        return null;
    }

    @Test
    void anOutsideHoldLostAndThenReleasedFreesNoPlaceAndLeavesNothing() throws Exception {
        BackendLockStore store = stores.hooked();
        Lease outside = outsideHoldOfTwo(store);
        io.distlock.spi.Grant grant = stores.backend.lastGrant;
        stores.backend.releasePermit(grant); // gone from the store, as after an operator's delete
        stores.backend.events.lost(grant, "permit vanished");
        assertThat(outside.state()).isEqualTo(LeaseState.LOST);
        assertThatThrownBy(outside::release).isInstanceOf(LockLostException.class);
        HookedStores.assertNothingLeft(store);
        Lease one = store.semaphore("s", 2).tryAcquire().orElseThrow();
        Lease two = store.semaphore("s", 2).tryAcquire().orElseThrow();
        assertThat(store.semaphore("s", 2).tryAcquire()).as("a third permit of 2").isEmpty();
        one.release();
        two.release();
        HookedStores.assertNothingLeft(store);
    }

    /**
     * The name takes the outside hold's limit while it is held: threads of that limit pass the gate (2 places), a
     * third queues. The outside hold's releaseAfter must not let the queued one through (no place of its own to free),
     * and its delayed release must free its permit in the store.
     */
    @Test
    void anOutsideHoldsReleaseAfterUnderTheGateOfItsOwnLimitFreesNoPlace() throws Exception {
        BackendLockStore store = stores.hooked();
        Lease outside = outsideHoldOfTwo(store);
        Lease placed = store.semaphore("s", 2).tryAcquire().orElseThrow(); // the gate takes 2: outside + this = full
        Future<Lease> inStore = stores.pool.submit(() -> store.semaphore("s", 2).acquire()); // second place, waits in store
        Awaitility.await().atMost(LONG).until(() -> stores.backend.permitCalls.get() == 1);
        Future<Lease> queued = stores.pool.submit(() -> store.semaphore("s", 2).acquire());
        Awaitility.await().atMost(LONG).until(() -> store.names.queued() == 1);
        outside.releaseAfter(Duration.ofMillis(200));
        Lease second = inStore.get(20, TimeUnit.SECONDS); // the delayed release freed the permit in the store
        assertThat(store.names.queued()).as("still queued: the outside hold had no place to pass on").isEqualTo(1);
        assertThat(queued).isNotDone();
        placed.release();
        queued.get(20, TimeUnit.SECONDS).release();
        second.release();
        assertThat(store.delayedReleasesPending()).isZero();
        HookedStores.assertNothingLeft(store);
    }

    @Test
    void anOutsideHoldIsExtendedAndWalkedAtConnectionEvents() throws Exception {
        BackendLockStore store = stores.hooked();
        Lease outside = outsideHoldOfTwo(store);
        assertThat(outside.extend(Duration.ofSeconds(40))).isTrue();
        stores.backend.events.suspended();
        assertThat(outside.state()).isEqualTo(LeaseState.UNCERTAIN);
        stores.backend.events.reconnected();
        assertThat(outside.state()).isEqualTo(LeaseState.HELD);
        stores.backend.events.sessionLost("session gone");
        assertThat(outside.state()).isEqualTo(LeaseState.LOST);
        assertThatThrownBy(outside::release).isInstanceOf(LockLostException.class);
        HookedStores.assertNothingLeft(store);
    }

    @Test
    void aCloseLosesAndFreesAnOutsideHold() throws Exception {
        BackendLockStore store = stores.hooked();
        Lease outside = outsideHoldOfTwo(store);
        store.close();
        assertThat(outside.state()).isEqualTo(LeaseState.LOST);
        LockStore other = stores.other();
        Lease renamed = other.semaphore("s", 3).tryAcquire().orElseThrow(
                () -> new AssertionError("the outside hold's permit was not freed at close"));
        renamed.release();
    }

    @Test
    void anOutsideHoldIsRenewedInTheBackground() throws Exception {
        BackendLockStore store = stores.hooked();
        Lease outside = outsideHoldOfTwo(store,
                io.distlock.LockOptions.defaults().withLeaseTime(Duration.ofMillis(600)));
        // not a synchronisation: three lease times pass, which only the background renewal survives
        Awaitility.await().pollDelay(Duration.ofMillis(1800)).atMost(LONG).until(() -> true);
        assertThat(outside.state()).isEqualTo(LeaseState.HELD);
        assertThat(stores.other().semaphore("s", 2).availablePermits()).as("the outside permit still held in the store")
                .isEqualTo(1);
        outside.release();
        HookedStores.assertNothingLeft(store);
    }

    /** A close stops a semaphore waiter queued at the gate behind an outside hold's neighbour: it leaves, closed. */
    @Test
    void aCloseEndsAWaiterQueuedAtTheGateWhileAnOutsideHoldIsHeld() throws Exception {
        BackendLockStore store = stores.hooked();
        Lease outside = outsideHoldOfTwo(store);
        Lease one = store.semaphore("s", 2).tryAcquire().orElseThrow(); // gate of 2: one place
        Future<Lease> inStore = stores.pool.submit(() -> store.semaphore("s", 2).acquire()); // second place, in the store
        Awaitility.await().atMost(LONG).until(() -> stores.backend.permitCalls.get() == 1);
        Future<Lease> queued = stores.pool.submit(() -> store.semaphore("s", 2).acquire());
        Awaitility.await().atMost(LONG).until(() -> store.names.queued() == 1);
        store.close();
        for (Future<Lease> f : List.of(inStore, queued)) {
            assertThatThrownBy(() -> f.get(20, TimeUnit.SECONDS)).hasCauseInstanceOf(IllegalStateException.class)
                    .cause().hasMessageContaining("closed");
        }
        assertThat(outside.state()).isEqualTo(LeaseState.LOST);
        assertThat(one.state()).isEqualTo(LeaseState.LOST);
        HookedStores.assertNothingLeft(store);
        Lease three = stores.other().semaphore("s", 3).tryAcquire().orElseThrow(
                () -> new AssertionError("a permit of the closed store is still held"));
        three.release();
    }

    /** A loss the backend reports for an outside grant before its registration loses the lease it returns. */
    @Test
    void aLossOfAnOutsideGrantInFlightLosesItsLease() throws Exception {
        BackendLockStore store = stores.hooked();
        CountDownLatch gate = new CountDownLatch(1);
        stores.backend.permitGate = gate;
        Future<Optional<Lease>> three = stores.pool.submit(() -> store.semaphore("s", 3).tryAcquire());
        assertThat(stores.backend.permitEntered.await(20, TimeUnit.SECONDS)).isTrue();
        stores.backend.permitGate = null;
        stores.backend.afterPermit = grant -> {
            stores.backend.releasePermit(grant);
            stores.backend.events.lost(grant, "permit vanished before its registration");
            return grant;
        };
        Lease outside;
        try {
            outside = store.semaphore("s", 2).tryAcquire().orElseThrow();
        } finally {
            stores.backend.afterPermit = java.util.function.UnaryOperator.identity(); // the 3's grant, if any, stays
            gate.countDown();
        }
        assertThat(outside.state()).isEqualTo(LeaseState.LOST);
        Optional<Lease> threeGot = three.get(20, TimeUnit.SECONDS); // nothing held now: the store may grant it
        threeGot.ifPresent(Lease::release);
        assertThatThrownBy(outside::release).isInstanceOf(LockLostException.class);
        HookedStores.assertNothingLeft(store);
    }
}
