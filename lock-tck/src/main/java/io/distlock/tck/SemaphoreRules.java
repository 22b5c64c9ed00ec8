package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.DistributedSemaphore;
import io.distlock.tck.check.CriticalSection;
import io.distlock.tck.process.LockClientProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * §18 Semaphores: never more than {@code permits} valid leases of one semaphore name, each permit a lease with the
 * lock's guarantees. A store without permit operations is reported skipped.
 */
public interface SemaphoreRules extends TckSupport {


    @Test
    @DisplayName("§18.1 clients x threads on one semaphore of 2: never more than 2 holders")
    default void rule_18_1_limitHoldsAcrossClientsAndThreads() throws Exception {
        int clients = 3;
        int threadsPerClient = 3;
        int rounds = 8;
        int permits = 2;
        String name = tck().name("limit");
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<Long> tokens = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(clients * threadsPerClient);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                LockStore store = c == 0 ? Tck.semaphoreClient(tck()) : tck().client();
                for (int t = 0; t < threadsPerClient; t++) {
                    futures.add(pool.submit(() -> {
                        start.await();
                        for (int r = 0; r < rounds; r++) {
                            try (Lease lease = store.semaphore(name, permits).acquire()) {
                                // read-modify-write of the holder count, with a pause between read and write
                                int now = inside.incrementAndGet();
                                most.accumulateAndGet(now, Math::max);
                                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                                tokens.add(lease.fencingToken());
                                inside.decrementAndGet();
                            }
                        }
                        return null;
                    }));
                }
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.println("TCK §18.1: at most " + most.get() + " holders at once of a limit of " + permits);
        assertThat(most.get()).as("most holders at once").isLessThanOrEqualTo(permits);
        assertThat(tokens).as("every permit got its own token").doesNotHaveDuplicates()
                .hasSize(clients * threadsPerClient * rounds);
    }

    @Test
    @DisplayName("§18.2 up to the limit, permits are granted at once to several clients; one more is refused")
    default void rule_18_2_permitsUpToTheLimitAtOnce() {
        String name = tck().name("at once");
        List<Lease> held = new ArrayList<>();
        held.add(Tck.semaphoreClient(tck()).semaphore(name, 3).tryAcquire().orElseThrow());
        held.add(tck().client().semaphore(name, 3).tryAcquire().orElseThrow());
        held.add(tck().client().semaphore(name, 3).tryAcquire().orElseThrow());
        LockStore fourth = tck().client();
        assertThat(fourth.semaphore(name, 3).tryAcquire()).as("a fourth permit of 3").isEmpty();
        assertThat(fourth.semaphore(name, 3).availablePermits()).isZero();
        held.remove(0).release();
        assertThat(fourth.semaphore(name, 3).availablePermits()).isEqualTo(1);
        Lease next = fourth.semaphore(name, 3).tryAcquire().orElseThrow();
        next.release();
        held.forEach(Lease::release);
        assertThat(fourth.semaphore(name, 3).availablePermits()).isEqualTo(3);
    }

    @Test
    @DisplayName("§18.3 separate JVMs and this one on one semaphore of 2: never more than 2 holders at once")
    default void rule_18_3_limitHoldsAcrossJvms() throws Exception {
        Tck.assumeSeparateJvms(tck());
        LockStore store = Tck.semaphoreClient(tck());
        String name = tck().name("jvm limit");
        int permits = 2;
        int rounds = 10;
        Duration pause = Duration.ofMillis(20);
        List<CriticalSection> sections = Collections.synchronizedList(new ArrayList<>());
        try (LockClientProcess a = LockClientProcess.start(tck().storeUri(), "a");
                LockClientProcess b = LockClientProcess.start(tck().storeUri(), "b")) {
            CompletableFuture<List<CriticalSection>> fromA = CompletableFuture.supplyAsync(
                    () -> a.permitWork(name, permits, rounds, pause, Duration.ofMinutes(3)));
            CompletableFuture<List<CriticalSection>> fromB = CompletableFuture.supplyAsync(
                    () -> b.permitWork(name, permits, rounds, pause, Duration.ofMinutes(3)));
            for (int r = 0; r < rounds; r++) {
                try (Lease lease = store.semaphore(name, permits).acquire()) {
                    long enter = System.nanoTime();
                    LockSupport.parkNanos(pause.toNanos());
                    sections.add(new CriticalSection(name, "test", enter, System.nanoTime(), lease.fencingToken()));
                }
            }
            sections.addAll(fromA.get(3, TimeUnit.MINUTES));
            sections.addAll(fromB.get(3, TimeUnit.MINUTES));
        }
        int most = mostAtOnce(sections);
        System.out.println("TCK §18.3: at most " + most + " holders at once across 3 JVMs, limit " + permits);
        assertThat(sections).hasSize(3 * rounds);
        assertThat(most).as("most holders at once across JVMs").isLessThanOrEqualTo(permits);
        assertThat(sections.stream().map(CriticalSection::token).distinct().count()).isEqualTo(3L * rounds);
    }

    @Test
    @DisplayName("§18.4 a holder whose process is killed (SIGKILL) frees its permit within lease time or session "
            + "timeout plus margin")
    default void rule_18_4_killedHolderFreesPermit() throws InterruptedException {
        Tck.assumeSeparateJvms(tck());
        LockStore other = Tck.semaphoreClient(tck());
        String name = tck().name("killed permit");
        try (LockClientProcess holder = LockClientProcess.start(tck().storeUri(), "holder")) {
            long token = holder.acquirePermit(name, 1, Tck.SHORT_LEASE, true, Tck.HANG);
            assertThat(other.semaphore(name, 1).tryAcquire()).as("held by the other process").isEmpty();
            holder.kill();
            long killed = System.nanoTime();
            Duration bound = Tck.deadHolderBound(tck(), Tck.SHORT_LEASE);
            Optional<Lease> next = other.semaphore(name, 1).tryAcquire(bound);
            assertThat(next).as("freed after the holder died, within " + bound).isPresent();
            assertThat(next.get().fencingToken()).isGreaterThan(token);
            System.out.println("TCK §18.4: permit freed " + Tck.elapsedSince(killed).toMillis() + " ms after SIGKILL");
            next.get().release();
        }
    }

    @Test
    @DisplayName("§18.5 a holder that stops renewing frees its permit within its lease time plus margin, and hears of "
            + "the loss")
    default void rule_18_5_abandonedPermitFreesAndSignalsLoss() throws InterruptedException {
        Tck.assumeTimeBound(tck());
        LockStore holder = Tck.semaphoreClient(tck());
        LockStore other = tck().client();
        String name = tck().name("expiring permit");
        // the lease runs from its grant, which is after this and before acquire() returns: a slow return on a loaded
        // machine must not shorten the time measured
        long beforeGrant = System.nanoTime();
        Lease lease = holder.semaphore(name, 1, Tck.expiring()).acquire();
        CountDownLatch lost = new CountDownLatch(1);
        lease.onLost(e -> lost.countDown());
        Optional<Lease> next = other.semaphore(name, 1).tryAcquire(Tck.deadHolderBound(tck(), Tck.SHORT_LEASE));
        assertThat(next).as("freed within lease + margin").isPresent();
        assertThat(Tck.elapsedSince(beforeGrant)).as("not freed before the lease ran out")
                .isGreaterThanOrEqualTo(Tck.SHORT_LEASE.minusMillis(100));
        assertThat(lost.await(Tck.PROMPTLY.toMillis(), TimeUnit.MILLISECONDS)).as("onLost fired").isTrue();
        assertThat(lease.isValid()).isFalse();
        assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class).hasMessageContaining(name);
        next.get().release();
    }

    @Test
    @DisplayName("§18.6 fencing tokens strictly increase across successive permits of a name, whichever client holds "
            + "them")
    default void rule_18_6_tokensIncrease() throws InterruptedException {
        String name = tck().name("tokens");
        List<DistributedSemaphore> semaphores = List.of(Tck.semaphoreClient(tck()).semaphore(name, 2),
                tck().client().semaphore(name, 2));
        long last = 0;
        for (int i = 0; i < 10; i++) {
            Lease lease = semaphores.get(i % 2).acquire();
            assertThat(lease.fencingToken()).as("permit " + i).isGreaterThan(last);
            assertThat(lease.lockName()).isEqualTo(name);
            last = lease.fencingToken();
            lease.release();
        }
        Lease a = semaphores.get(0).acquire();
        Lease b = semaphores.get(1).acquire();
        assertThat(b.fencingToken()).as("a permit granted later").isGreaterThan(a.fencingToken());
        assertThat(a.fencingToken()).isGreaterThan(last);
        a.release();
        b.release();
    }

    @Test
    @DisplayName("§18.7 a full semaphore: tryAcquire() is empty at once, tryAcquire(d) waits about d, and a release "
            + "during the wait hands over promptly")
    default void rule_18_7_timedWaits() throws Exception {
        String name = tck().name("full");
        DistributedSemaphore mine = Tck.semaphoreClient(tck()).semaphore(name, 1);
        DistributedSemaphore theirs = tck().client().semaphore(name, 1);
        Lease held = mine.acquire();
        long before = System.nanoTime();
        assertThat(theirs.tryAcquire()).isEmpty();
        assertThat(Tck.elapsedSince(before)).isLessThan(Tck.PROMPTLY);
        Duration wait = Duration.ofMillis(500);
        before = System.nanoTime();
        assertThat(theirs.tryAcquire(wait)).isEmpty();
        Duration waited = Tck.elapsedSince(before);
        assertThat(waited).as("waited about " + wait).isGreaterThanOrEqualTo(wait.minusMillis(20))
                .isLessThan(wait.plus(Tck.PROMPTLY));
        assertThatThrownBy(() -> theirs.tryAcquire(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxWait");
        CompletableFuture<Optional<Lease>> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return theirs.tryAcquire(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        // the waiter is in its wait once the semaphore stays full for it
        assertThat(waiting).isNotDone();
        long released = System.nanoTime();
        held.release();
        Optional<Lease> next = waiting.get(30, TimeUnit.SECONDS);
        assertThat(next).isPresent();
        assertThat(Tck.elapsedSince(released)).as("handed over promptly").isLessThan(Tck.PROMPTLY);
        assertThat(next.get().fencingToken()).isGreaterThan(held.fencingToken());
        next.get().release();
    }

    @Test
    @DisplayName("§18.8 an acquire stating another limit than the current holders' fails with IllegalStateException "
            + "naming both")
    default void rule_18_8_disagreeingLimitsAreRefused() throws InterruptedException {
        String name = tck().name("limits");
        LockStore first = Tck.semaphoreClient(tck());
        LockStore second = tck().client();
        Lease held = first.semaphore(name, 2).acquire();
        assertThatThrownBy(() -> second.semaphore(name, 3).tryAcquire())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("2").hasMessageContaining("3")
                .hasMessageContaining(name);
        assertThatThrownBy(() -> second.semaphore(name, 1).tryAcquire(Duration.ofMillis(200)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("2").hasMessageContaining("1");
        Lease alsoHeld = second.semaphore(name, 2).tryAcquire().orElseThrow();
        held.release();
        alsoHeld.release();
        // with no holder left, the name takes a new limit
        Lease renamed = second.semaphore(name, 3).tryAcquire().orElseThrow();
        assertThatThrownBy(() -> first.semaphore(name, 2).tryAcquire()).isInstanceOf(IllegalStateException.class);
        renamed.release();
    }

    @Test
    @DisplayName("§18.9 bad input: permits below 1 or above the store's maximum, null or empty names, null options")
    default void rule_18_9_badInputIsRefused() {
        LockStore store = Tck.semaphoreClient(tck());
        String name = tck().name("bad");
        assertThatThrownBy(() -> store.semaphore(name, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("permits");
        assertThatThrownBy(() -> store.semaphore(name, -3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("permits");
        assertThatThrownBy(() -> store.semaphore(name, Integer.MAX_VALUE)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most");
        assertThatThrownBy(() -> store.semaphore(null, 2)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("name");
        assertThatThrownBy(() -> store.semaphore("", 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> store.semaphore(name, 2, null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("options");
    }

    @Test
    @DisplayName("§18.10 a semaphore and a lock of the same name are independent")
    default void rule_18_10_independentOfTheLockOfTheSameName() throws InterruptedException {
        String name = tck().name("shared name");
        LockStore one = Tck.semaphoreClient(tck());
        LockStore two = tck().client();
        Lease lock = one.lock(name).acquire();
        Lease permit = two.semaphore(name, 1).tryAcquire().orElseThrow(
                () -> new AssertionError("the lock of the same name blocked the semaphore"));
        assertThat(two.lock(name).tryAcquire()).as("the lock is still held").isEmpty();
        assertThat(one.semaphore(name, 1).tryAcquire()).as("the permit is still held").isEmpty();
        lock.release();
        assertThat(permit.isValid()).isTrue();
        permit.release();
    }

    @Test
    @DisplayName("§18.11 not reentrant: each acquire of one thread takes one more permit; a permit is released from "
            + "any thread")
    default void rule_18_11_notReentrantAndReleasableFromAnyThread() throws Exception {
        String name = tck().name("not reentrant");
        DistributedSemaphore semaphore = Tck.semaphoreClient(tck()).semaphore(name, 2);
        Lease first = semaphore.acquire();
        Lease second = semaphore.tryAcquire().orElseThrow();
        assertThat(second.fencingToken()).isNotEqualTo(first.fencingToken());
        assertThat(semaphore.tryAcquire()).as("a third permit of 2, same thread").isEmpty();
        CompletableFuture.runAsync(first::release).get(30, TimeUnit.SECONDS);
        Lease third = tck().client().semaphore(name, 2).tryAcquire(Tck.PROMPTLY).orElseThrow();
        second.release();
        third.release();
    }

    @Test
    @DisplayName("§18.12 a waiter refused while a permit's lease was long acquires within margin after the permit's "
            + "releaseAfter time")
    default void rule_18_12_permitReleaseAfterWakesAWaiterRefusedUnderTheLongLease() throws Exception {
        String name = tck().name("permit-release-after-waiter");
        LockOptions longLease = LockOptions.defaults().withLeaseTime(ReleaseAfterWaiter.LONG_LEASE);
        DistributedSemaphore holder = Tck.semaphoreClient(tck()).semaphore(name, 1, longLease);
        DistributedSemaphore waiter = tck().client().semaphore(name, 1, longLease);
        ReleaseAfterWaiter.check(tck(), "§18.12", holder::tryAcquire, waiter::tryAcquire);
    }

    /** The most sections inside at one instant (a sweep over enters and exits; an exit at the same instant first). */
    private static int mostAtOnce(List<CriticalSection> sections) {
        List<long[]> events = new ArrayList<>();
        for (CriticalSection s : sections) {
            events.add(new long[] {s.enterNanos(), 1});
            events.add(new long[] {s.exitNanos(), -1});
        }
        events.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
        int inside = 0;
        int most = 0;
        for (long[] e : events) {
            inside += (int) e[1];
            most = Math.max(most, inside);
        }
        return most;
    }
}
