package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LeaseModel;
import io.distlock.LeaseState;
import io.distlock.LockException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.tck.stub.Pause;
import io.distlock.tck.stub.StubBackend;
import io.distlock.tck.stub.StubBackend.Point;
import io.distlock.tck.stub.StubSpace;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The shared core against the stub backend, paused at the points where a real store's timing decides: renewal
 * against extend, connection events against an acquisition, a renew call that hangs, renewals that keep failing.
 */
class CoreRacesTest {

    private static final Duration LONG = Duration.ofSeconds(10);

    private final StubSpace space = new StubSpace();
    private final List<LockStore> stores = new ArrayList<>();
    private final List<Pause> pauses = new ArrayList<>();

    private LockStore store() {
        LockStore store = space.openStore();
        stores.add(store);
        return store;
    }

    private static StubBackend stub(LockStore store) {
        return StubBackend.behind(store).orElseThrow();
    }

    private Pause pause(LockStore store, Point point) {
        Pause pause = stub(store).pauseAt(point);
        pauses.add(pause);
        return pause;
    }

    @AfterEach
    void cleanUp() {
        pauses.forEach(Pause::resume);
        stores.forEach(LockStore::close);
    }

    private boolean storeHolds(String name) {
        return space.expiresAtNanos(name).isPresent();
    }

    @Test
    void extendRacingABackgroundRenewalNeverLeavesTheLeaseValidPastTheStoresExpiry() throws Exception {
        LockStore store = store();
        Lease lease = store.lock("raced", LockOptions.defaults().withLeaseTime(Duration.ofMillis(600))).acquire();
        Pause renewal = pause(store, Point.RENEW_BEFORE_STORE);
        assertThat(renewal.awaitReached(LONG)).as("the background renewal is on its way").isTrue();
        // extend(60 s) while the renewal with the old 600 ms lease time has not reached the store yet
        CompletableFuture<Boolean> extended = CompletableFuture.supplyAsync(() -> lease.extend(Duration.ofSeconds(60)));
        Awaitility.await("extend is sent or waits for the renewal").atMost(LONG)
                .until(() -> extended.isDone() || stub(store).renewCalls() >= 1);
        renewal.resume();
        assertThat(extended.get(10, TimeUnit.SECONDS)).isTrue();
        Awaitility.await("whenever the store no longer has the lock, the lease says it is not valid")
                .during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5))
                .until(() -> storeHolds("raced") || !lease.isValid());
        assertThat(lease.isValid()).isEqualTo(storeHolds("raced"));
    }

    @Test
    void aSuspensionBetweenGrantAndRegistrationTurnsTheNewLeaseUncertain() throws Exception {
        LockStore store = store();
        stub(store).leaseModel(LeaseModel.SESSION);
        Pause granted = pause(store, Point.AFTER_GRANT);
        CompletableFuture<Lease> acquired = CompletableFuture.supplyAsync(() -> acquire(store, "suspended"));
        assertThat(granted.awaitReached(LONG)).isTrue();
        stub(store).events().suspended();
        granted.resume();
        Lease lease = acquired.get(10, TimeUnit.SECONDS);
        assertThat(lease.state()).as("the connection was suspended when the lease was registered")
                .isEqualTo(LeaseState.UNCERTAIN);
        assertThat(lease.isValid()).isFalse();
        stub(store).events().reconnected();
        assertThat(lease.state()).isEqualTo(LeaseState.HELD);
        lease.release();
    }

    @Test
    void aSuspensionAndReconnectBetweenGrantAndRegistrationLeaveTheLeaseHeld() throws Exception {
        LockStore store = store();
        stub(store).leaseModel(LeaseModel.SESSION);
        Pause granted = pause(store, Point.AFTER_GRANT);
        CompletableFuture<Lease> acquired = CompletableFuture.supplyAsync(() -> acquire(store, "blip"));
        assertThat(granted.awaitReached(LONG)).isTrue();
        stub(store).events().suspended();
        stub(store).events().reconnected();
        granted.resume();
        Lease lease = acquired.get(10, TimeUnit.SECONDS);
        assertThat(lease.state()).isEqualTo(LeaseState.HELD);
        lease.release();
    }

    @Test
    void aSessionLostBetweenGrantAndRegistrationLosesTheNewLease() throws Exception {
        LockStore store = store();
        stub(store).leaseModel(LeaseModel.SESSION);
        Pause granted = pause(store, Point.AFTER_GRANT);
        CompletableFuture<Lease> acquired = CompletableFuture.supplyAsync(() -> acquire(store, "session lost"));
        assertThat(granted.awaitReached(LONG)).isTrue();
        stub(store).events().sessionLost("session expired");
        stub(store).events().lost(granted.grant(), "session expired");
        granted.resume();
        Lease lease = acquired.get(10, TimeUnit.SECONDS);
        assertThat(lease.state()).isEqualTo(LeaseState.LOST);
    }

    @Test
    void aSessionLostAloneBetweenGrantAndRegistrationLosesTheNewLeaseAndFreesIt() throws Exception {
        // the SPI's sessionLost says "every lease of this backend is lost": the core must cover the grant in flight
        // itself, without the backend also reporting lost(grant) for it
        LockStore store = store();
        stub(store).leaseModel(LeaseModel.SESSION);
        Pause granted = pause(store, Point.AFTER_GRANT);
        CompletableFuture<Lease> acquired = CompletableFuture.supplyAsync(() -> acquire(store, "lost alone"));
        assertThat(granted.awaitReached(LONG)).isTrue();
        assertThat(stub(store).forceRelease("lost alone")).as("the ended session's entries are gone").isTrue();
        stub(store).events().sessionLost("session expired");
        granted.resume();
        Lease lease = acquired.get(10, TimeUnit.SECONDS);
        assertThat(lease.state()).as("granted before the session was reported lost, registered after")
                .isEqualTo(LeaseState.LOST);
        assertThat(lease.isValid()).isFalse();
        LockStore other = store();
        assertThat(other.lock("lost alone").tryAcquire()).as("another client takes it at once").isPresent();
    }

    @Test
    void aGrantOfTheNextSessionRegisteredAfterTheLossStaysHeld() throws Exception {
        // an acquire that waited across the loss is granted in the next session: the store still has it
        LockStore store = store();
        stub(store).leaseModel(LeaseModel.SESSION);
        Pause granted = pause(store, Point.AFTER_GRANT);
        CompletableFuture<Lease> acquired = CompletableFuture.supplyAsync(() -> acquire(store, "next session grant"));
        assertThat(granted.awaitReached(LONG)).isTrue();
        stub(store).events().sessionLost("session expired");
        granted.resume();
        Lease lease = acquired.get(10, TimeUnit.SECONDS);
        assertThat(lease.state()).as("the store confirmed it").isEqualTo(LeaseState.HELD);
        assertThat(store().lock("next session grant").tryAcquire()).as("held: another client is refused").isEmpty();
        lease.release();
    }

    @Test
    void aCloseWaitsForAGrantInFlightAndReleasesItBeforeTheBackendCloses() throws Exception {
        LockStore store = store();
        Pause granted = pause(store, Point.AFTER_GRANT);
        CompletableFuture<Lease> acquired = CompletableFuture.supplyAsync(() -> acquire(store, "in flight"));
        assertThat(granted.awaitReached(LONG)).as("the store granted it; the answer is on its way").isTrue();
        CountDownLatch closeReturned = new CountDownLatch(1);
        Thread closing = new Thread(() -> {
            store.close();
            closeReturned.countDown();
        }, "closing");
        closing.start();
        Awaitility.await("the close has begun: new acquisitions are refused").atMost(LONG)
                .until(() -> refusedAsClosed(store));
        Awaitility.await("close waits for the acquisition in flight").during(Duration.ofMillis(300))
                .atMost(Duration.ofSeconds(2)).until(() -> closeReturned.getCount() == 1);
        granted.resume();
        assertThat(closeReturned.await(10, TimeUnit.SECONDS)).as("close returns once the acquisition ended").isTrue();
        assertThat(acquired).failsWithin(Duration.ofSeconds(10)).withThrowableThat()
                .havingRootCause().isInstanceOf(IllegalStateException.class)
                .withMessageContaining("was closed while acquiring 'in flight'");
        assertThat(storeHolds("in flight")).as("released by the acquisition, before the backend closed").isFalse();
    }

    @Test
    void aGrantWhoseCallBeganAfterASessionLossStaysHeld() throws Exception {
        LockStore store = store();
        stub(store).leaseModel(LeaseModel.SESSION);
        stub(store).events().sessionLost("session expired");
        Lease lease = store.lock("next session").acquire();
        assertThat(lease.state()).as("taken in the next session").isEqualTo(LeaseState.HELD);
        lease.release();
    }

    @Test
    void onLostFiresAtTheLocalDeadlineWhileARenewCallHangsInTheStore() throws Exception {
        LockStore store = store();
        Lease lease = store.lock("hanging", LockOptions.defaults().withLeaseTime(Duration.ofMillis(600))).acquire();
        long acquired = System.nanoTime();
        CountDownLatch lost = new CountDownLatch(1);
        lease.onLost(e -> lost.countDown());
        Pause hang = pause(store, Point.RENEW_BEFORE_STORE);
        assertThat(hang.awaitReached(LONG)).isTrue();
        assertThat(lost.await(3, TimeUnit.SECONDS)).as("lost-listener told while the renew call still hangs").isTrue();
        Duration after = Tck.elapsedSince(acquired);
        System.out.println("CoreRacesTest: 600 ms lease with a hanging renew call lost after " + after.toMillis()
                + " ms");
        assertThat(after).isGreaterThanOrEqualTo(Duration.ofMillis(550));
        assertThat(lease.isValid()).isFalse();
    }

    @Test
    void aRenewalAnsweredAfterTheLocalDeadlineFreesTheLockInTheStore() throws Exception {
        LockStore store = store();
        Lease lease = store.lock("late answer", LockOptions.defaults().withLeaseTime(Duration.ofMillis(1500)))
                .acquire();
        CountDownLatch lost = new CountDownLatch(1);
        lease.onLost(e -> lost.countDown());
        Pause answer = pause(store, Point.RENEW_AFTER_STORE);
        assertThat(answer.awaitReached(LONG)).as("the store renewed it; the answer is on its way").isTrue();
        assertThat(lost.await(5, TimeUnit.SECONDS)).as("lost at the local deadline").isTrue();
        long storeExpiry = space.expiresAtNanos("late answer").orElseThrow(
                () -> new AssertionError("the store should still hold the renewed lock"));
        answer.resume();
        Awaitility.await("the orphan is freed in the store").atMost(LONG).until(() -> !storeHolds("late answer"));
        assertThat(System.nanoTime() - storeExpiry).as("freed before the store's own expiry").isNegative();
    }

    @Test
    void oneHangingRenewCallDoesNotStallTheRenewalsOfOtherLeases() throws Exception {
        LockStore store = store();
        LockOptions shortLease = LockOptions.defaults().withLeaseTime(Duration.ofMillis(600));
        store.lock("slow", shortLease).acquire();
        Pause hang = stub(store).pauseAt(Point.RENEW_BEFORE_STORE, "slow"::equals);
        pauses.add(hang);
        assertThat(hang.awaitReached(LONG)).isTrue();
        Lease other = store.lock("fast", shortLease).acquire();
        Awaitility.await("the other lease stays valid for three lease times")
                .during(Duration.ofMillis(1800)).atMost(Duration.ofSeconds(5)).until(other::isValid);
        assertThat(storeHolds("fast")).isTrue();
        other.release();
    }

    @Test
    void renewalsFailingWithAPlainLockExceptionBackOff() throws Exception {
        Logger jul = Logger.getLogger("io.distlock.core.RenewalScheduler");
        List<LogRecord> warnings = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        jul.addHandler(handler);
        try {
            renewalsFailWithAPlainLockException();
        } finally {
            jul.removeHandler(handler);
        }
        assertThat(warnings).as("one warning when renewals start failing, not one per attempt").hasSize(1);
    }

    private void renewalsFailWithAPlainLockException() throws Exception {
        LockStore store = store();
        stub(store).failRenewalsWith(() -> new LockException("OOM command not allowed when used memory > 'maxmemory'"));
        store.lock("oom", LockOptions.defaults().withLeaseTime(Duration.ofSeconds(3))).acquire();
        Awaitility.await().atMost(LONG).until(() -> stub(store).renewCalls() >= 1);
        int first = stub(store).renewCalls();
        Awaitility.await("at most 20 renew calls in two seconds of failures")
                .during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4))
                .until(() -> stub(store).renewCalls() - first <= 20);
        int retries = stub(store).renewCalls() - first;
        System.out.println("CoreRacesTest: " + retries + " renew calls in 2 s of plain LockException failures");
        assertThat(retries).as("renewal was retried").isGreaterThanOrEqualTo(1);
    }

    @Test
    void extendOfASessionBoundLeaseChecksTheStore() throws Exception {
        LockStore store = store();
        stub(store).leaseModel(LeaseModel.SESSION);
        Lease lease = store.lock("checked").acquire();
        assertThat(lease.extend(Duration.ofSeconds(5))).isTrue();
        int calls = stub(store).renewCalls();
        assertThat(calls).as("one round trip to the store").isEqualTo(1);
        assertThat(stub(store).forceRelease("checked")).isTrue();
        assertThat(lease.extend(Duration.ofSeconds(5))).as("the store no longer has it").isFalse();
        assertThat(lease.state()).isEqualTo(LeaseState.LOST);
    }

    /** Whether {@code store} refuses a new acquisition as closed. */
    private static boolean refusedAsClosed(LockStore store) {
        try {
            store.lock("probe after close").tryAcquire().ifPresent(Lease::release);
            return false;
        } catch (IllegalStateException closed) {
            return true;
        }
    }

    private static Lease acquire(LockStore store, String name) {
        try {
            return store.lock(name).acquire();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
