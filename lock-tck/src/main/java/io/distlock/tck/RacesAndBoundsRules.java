package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LeaseState;
import io.distlock.LockInfo;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.tck.stub.Pause;
import io.distlock.tck.stub.StubBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * §15 Races and bounds: the orderings and leftovers a review of the core found, checked against the store under test
 * (the kit's own tests force the interleavings with the stub backend, which a real store cannot be made to take).
 */
public interface RacesAndBoundsRules extends TckSupport {

    /**
     * §15.5's threads releasing at once, and §15.6's acquiring: more than a client's default pool of connections (8 on
     * SQL, 16 on Redis).
     */
    int INTERRUPTED_THREADS = 24;

    @Test
    @DisplayName("§15.1 extend racing the background renewal never leaves a lease valid after the store let it go")
    default void rule_15_1_extendRacingRenewalNeverOutlivesTheStore() throws InterruptedException {
        Tck.assumeTimeBound(tck());
        LockStore holder = tck().client();
        LockStore other = tck().client();
        String name = tck().name("extend race");
        Duration shortLease = Duration.ofMillis(450);
        // renewed every 150 ms: the extend calls below keep meeting background renewals of the short lease time
        Lease lease = holder.lock(name, LockOptions.defaults().withLeaseTime(shortLease)).acquire();
        for (int round = 0; round < 4; round++) {
            assertThat(lease.extend(shortLease)).isTrue();
            assertThat(other.lock(name).tryAcquire(Duration.ofMillis(200))).as("held while renewed").isEmpty();
            assertThat(lease.extend(Duration.ofSeconds(20))).isTrue();
            // a renewal with the short lease time landing after the extend would free the lock in the store now
            Optional<Lease> taken = other.lock(name).tryAcquire(shortLease.multipliedBy(2));
            boolean stillValid = lease.isValid();
            taken.ifPresent(Lease::release);
            assertThat(taken.isPresent() && stillValid)
                    .as("round " + round + ": another client got the lock while the extended lease said it was valid")
                    .isFalse();
            assertThat(stillValid).as("round " + round + ": the extended lease is held").isTrue();
        }
        lease.release();
    }

    @Test
    @DisplayName("§15.2 tryAcquire() and tryLock() on an interrupted thread take a free lock; release() there succeeds")
    default void rule_15_2_interruptedThreadTakesAFreeLockAndReleasesIt() {
        LockStore client = tck().client();
        String name = tck().name("interrupted try");
        Lock view = client.lock(tck().name("interrupted tryLock")).asLock();
        Thread.currentThread().interrupt();
        try {
            Optional<Lease> lease = client.lock(name).tryAcquire();
            assertThat(lease).as("a single attempt ignores the interrupt, as Lock.tryLock() does").isPresent();
            lease.get().release();
            assertThat(lease.get().state()).isEqualTo(LeaseState.RELEASED);
            assertThat(view.tryLock()).as("tryLock() on an interrupted thread").isTrue();
            view.unlock();
            assertThat(Thread.currentThread().isInterrupted()).as("the interrupt flag is kept").isTrue();
        } finally {
            Thread.interrupted();
        }
        LockStore other = tck().client();
        assertThat(other.lock(name).tryAcquire()).as("released in the store").isPresent().get()
                .satisfies(Lease::release);
        Lock theirs = other.lock(tck().name("interrupted tryLock")).asLock();
        assertThat(theirs.tryLock()).as("unlocked in the store").isTrue();
        theirs.unlock();
    }

    @Test
    @DisplayName("§15.5 releases interrupted again and again while they run, racing for the client's connections, "
            + "all free their lock or permit at once and keep the interrupt")
    default void rule_15_5_releasesInterruptedWhileTheyRunFreeEveryName() throws Exception {
        LockStore holder = tck().client();
        boolean permits = holder.features().semaphores();
        List<String> locks = new ArrayList<>();
        List<String> semaphores = new ArrayList<>();
        List<InterruptStorm.Work> works = new ArrayList<>();
        for (int k = 0; k < INTERRUPTED_THREADS; k++) {
            String lockName = tck().name("interrupted release " + k);
            String viewName = tck().name("interrupted unlock " + k);
            String permitName = permits ? tck().name("interrupted permit release " + k) : null;
            locks.add(lockName);
            locks.add(viewName);
            if (permits) {
                semaphores.add(permitName);
            }
            works.add(new InterruptStorm.Work() {
                private final Lock view = holder.lock(viewName).asLock();
                private Lease lease;
                private Lease permit;

                @Override
                public void prepare() {
                    lease = holder.lock(lockName).tryAcquire().orElseThrow();
                    assertThat(view.tryLock()).as(viewName).isTrue();
                    permit = permits ? holder.semaphore(permitName, 1).tryAcquire().orElseThrow() : null;
                }

                @Override
                public void call(int i) {
                    switch (i) {
                        case 0 -> lease.release();
                        case 1 -> view.unlock();
                        default -> permit.close();
                    }
                }

                @Override
                public int calls() {
                    return permits ? 3 : 2;
                }
            });
        }
        List<String> failures = new InterruptStorm(works).run(tck().operationTimeout().plus(Tck.PROMPTLY));
        LockStore other = tck().client();
        List<String> stillHeld = new ArrayList<>(failures);
        List<Lease> taken = new ArrayList<>();
        for (String name : locks) {
            other.lock(name).tryAcquire().ifPresentOrElse(taken::add, () -> stillHeld.add("held: lock " + name));
        }
        for (String name : semaphores) {
            other.semaphore(name, 1).tryAcquire().ifPresentOrElse(taken::add,
                    () -> stillHeld.add("held: permit " + name));
        }
        taken.forEach(Lease::release);
        assertThat(stillHeld).as("releases interrupted while they ran; then names another client could not take "
                + "at once (held by nobody alive)").isEmpty();
    }

    @Test
    @DisplayName("§15.6 acquires interrupted again and again while they race for the client's connections end granted "
            + "or with InterruptedException, never as an outage, and leave no name held")
    default void rule_15_6_acquiresInterruptedWhileTheyRunEndHonestly() throws Exception {
        LockStore client = tck().client();
        boolean permits = client.features().semaphores();
        List<String> locks = new ArrayList<>();
        List<String> semaphores = new ArrayList<>();
        Queue<Lease> granted = new ConcurrentLinkedQueue<>();
        List<InterruptStorm.Work> works = new ArrayList<>();
        for (int k = 0; k < INTERRUPTED_THREADS; k++) {
            String lockName = tck().name("interrupted acquire " + k);
            String timedName = tck().name("interrupted timed acquire " + k);
            String permitName = permits ? tck().name("interrupted permit acquire " + k) : null;
            locks.add(lockName);
            locks.add(timedName);
            if (permits) {
                semaphores.add(permitName);
            }
            works.add(new InterruptStorm.Work() {
                @Override
                public void prepare() {
                }

                @Override
                public void call(int i) throws InterruptedException {
                    switch (i) {
                        case 0 -> granted.add(client.lock(lockName).acquire());
                        case 1 -> client.lock(timedName).tryAcquire(Tck.PROMPTLY).ifPresent(granted::add);
                        default -> granted.add(client.semaphore(permitName, 1).acquire());
                    }
                }

                @Override
                public int calls() {
                    return permits ? 3 : 2;
                }

                @Override
                public boolean answersInterrupt(Exception e) {
                    return e instanceof InterruptedException;
                }
            });
        }
        List<String> failures = new InterruptStorm(works).run(tck().operationTimeout().plus(Tck.PROMPTLY));
        granted.forEach(Lease::release);
        // an acquire the interrupts ended may have reached the store: taking that back may take up to an operation
        LockStore other = tck().client();
        Duration takenBack = tck().operationTimeout().plus(Tck.PROMPTLY);
        List<String> stillHeld = new ArrayList<>(failures);
        List<Lease> taken = new ArrayList<>();
        for (String name : locks) {
            other.lock(name).tryAcquire(takenBack).ifPresentOrElse(taken::add,
                    () -> stillHeld.add("held: lock " + name));
        }
        for (String name : semaphores) {
            other.semaphore(name, 1).tryAcquire(takenBack).ifPresentOrElse(taken::add,
                    () -> stillHeld.add("held: permit " + name));
        }
        taken.forEach(Lease::release);
        assertThat(stillHeld).as("acquires interrupted while they ran (%d granted, then released); then names another "
                + "client could not take (held by nobody alive)", granted.size()).isEmpty();
    }

    @Test
    @DisplayName("§15.7 extends and delayed releases interrupted again and again while they race for the client's "
            + "connections keep their lease or free it on time, never failing as an outage")
    default void rule_15_7_leaseCallsInterruptedWhileTheyRunKeepTheirWord() throws Exception {
        LockStore holder = tck().client();
        Duration minHeld = Duration.ofSeconds(1);
        List<String> extended = new ArrayList<>();
        List<String> delayed = new ArrayList<>();
        Queue<Lease> extendedLeases = new ConcurrentLinkedQueue<>();
        List<InterruptStorm.Work> works = new ArrayList<>();
        for (int k = 0; k < INTERRUPTED_THREADS; k++) {
            String extendName = tck().name("interrupted extend " + k);
            String delayName = tck().name("interrupted release after " + k);
            extended.add(extendName);
            delayed.add(delayName);
            works.add(new InterruptStorm.Work() {
                private Lease kept;
                private Lease delayedLease;

                @Override
                public void prepare() {
                    kept = holder.lock(extendName).tryAcquire().orElseThrow();
                    delayedLease = holder.lock(delayName).tryAcquire().orElseThrow();
                    extendedLeases.add(kept);
                }

                @Override
                public void call(int i) {
                    if (i == 0) {
                        assertThat(kept.extend(Duration.ofSeconds(30))).as("extend of " + extendName).isTrue();
                    } else {
                        delayedLease.releaseAfter(minHeld);
                    }
                }

                @Override
                public int calls() {
                    return 2;
                }
            });
        }
        long started = System.nanoTime();
        List<String> failures = new ArrayList<>(new InterruptStorm(works).run(
                tck().operationTimeout().plus(Tck.PROMPTLY)));
        LockStore other = tck().client();
        for (String name : extended) {
            Optional<Lease> taken = other.lock(name).tryAcquire();
            taken.ifPresent(Lease::release);
            if (taken.isPresent()) {
                failures.add("an extended lease's lock was free: " + name);
            }
        }
        extendedLeases.forEach(Lease::release);
        Duration freedBy = minHeld.plus(tck().operationTimeout()).plus(Tck.PROMPTLY);
        for (String name : delayed) {
            Duration left = freedBy.minus(Duration.ofNanos(System.nanoTime() - started));
            Optional<Lease> taken = other.lock(name).tryAcquire(left.isNegative() ? Duration.ZERO : left);
            taken.ifPresentOrElse(Lease::release, () -> failures.add("not freed after its minimum hold: " + name));
        }
        assertThat(failures).as("extends and delayed releases interrupted while they ran; then locks another client "
                + "could take though extended, or could not take once the minimum hold had passed").isEmpty();
    }

    @Test
    @DisplayName("§15.3 timed-out waits leave nothing behind: no entries, no wait resources, no delay for the next")
    default void rule_15_3_timedOutWaitsLeaveNothingBehind() throws InterruptedException {
        LockStore holder = tck().client();
        LockStore waiting = tck().client();
        String name = tck().name("timed out");
        Lease held = holder.lock(name).acquire();
        WaitResources probe = tck().waitResources();
        long before = probe == null ? 0 : probe.count(waiting);
        for (int i = 0; i < 40; i++) {
            assertThat(waiting.lock(name).tryAcquire(Duration.ofMillis(10))).isEmpty();
        }
        if (probe != null) {
            Awaitility.await("the waiting client's wait resources are back to " + before).atMost(Tck.PROMPTLY)
                    .until(() -> probe.count(waiting) <= before);
        }
        if (tck().features().admin()) {
            List<LockInfo> listed = holder.admin().list(name, 10);
            assertThat(listed).as("the admin view shows the holder only").hasSize(1);
            assertThat(listed.get(0).fencingToken()).isEqualTo(held.fencingToken());
        }
        held.release();
        long released = System.nanoTime();
        Optional<Lease> next = waiting.lock(name).tryAcquire(Tck.PROMPTLY);
        assertThat(next).as("the waiting client gets the lock at once").isPresent();
        assertThat(Tck.elapsedSince(released)).isLessThan(Tck.PROMPTLY);
        assertThat(next.get().fencingToken()).isGreaterThan(held.fencingToken());
        next.get().release();
    }

    @Test
    @DisplayName("§15.4 a connection event racing an acquisition is applied to the new lease")
    default void rule_15_4_connectionEventRacingAnAcquisitionIsApplied() throws Exception {
        LockStore client = tck().client();
        Optional<StubBackend> behind = StubBackend.behind(client);
        Assumptions.assumeTrue(behind.isPresent(),
                "skipped: a real store cannot be made to raise a connection event between its grant and the core's "
                        + "registration; the kit checks the shared core with its stub backend");
        StubBackend stub = behind.get();
        String name = tck().name("raced event");

        Pause suspended = stub.pauseAt(StubBackend.Point.AFTER_GRANT);
        CompletableFuture<Lease> first = CompletableFuture.supplyAsync(() -> client.lock(name).tryAcquire()
                .orElseThrow());
        try {
            assertThat(suspended.awaitReached(Tck.HANG)).isTrue();
            stub.events().suspended();
        } finally {
            suspended.resume();
        }
        Lease uncertain = first.get(Tck.HANG.toSeconds(), TimeUnit.SECONDS);
        assertThat(uncertain.state()).as("suspended before registration").isEqualTo(LeaseState.UNCERTAIN);
        stub.events().reconnected();
        assertThat(uncertain.state()).isEqualTo(LeaseState.HELD);
        uncertain.release();

        Pause lost = stub.pauseAt(StubBackend.Point.AFTER_GRANT);
        CompletableFuture<Lease> second = CompletableFuture.supplyAsync(() -> client.lock(name).tryAcquire()
                .orElseThrow());
        try {
            assertThat(lost.awaitReached(Tck.HANG)).isTrue();
            stub.events().sessionLost("session expired");
            stub.events().lost(lost.grant(), "session expired");
        } finally {
            lost.resume();
        }
        Lease gone = second.get(Tck.HANG.toSeconds(), TimeUnit.SECONDS);
        assertThat(gone.state()).as("the session was lost before registration").isEqualTo(LeaseState.LOST);
        assertThatThrownBy(gone::release).isInstanceOf(LockLostException.class);
    }
}
