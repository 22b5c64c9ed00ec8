package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * §23 against one shared store, many rounds: a client closed while its threads wait in tryAcquire(Duration) behind
 * another client, pass one name among themselves, and release what they get; after the close every name the other
 * client should get at once is free, and the close returned within its bound. A store's test extends this and names
 * the store URI (with a key prefix or table of its own).
 */
public abstract class CloseStressTestBase {

    private static final int ROUNDS = 12;
    private static final LockOptions LEASE = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(30));

    /** The URI both clients open, unique to this run so the names of other tests and helpers are not touched. */
    protected abstract String storeUri();

    @Test
    void closeAmongWaitersHandOversAndTimedTriesLeavesNothingHeld() throws InterruptedException {
        String uri = storeUri();
        try (LockStore other = LockStore.open(uri)) {
            for (int round = 0; round < ROUNDS; round++) {
                List<String> problems = round(uri, other, round);
                assertThat(problems).as("round " + round).isEmpty();
            }
        }
    }

    private static List<String> round(String uri, LockStore other, int round) throws InterruptedException {
        List<String> problems = new ArrayList<>();
        LockStore closing = LockStore.open(uri);
        String behind = "behind-" + round;
        String handed = "handed-" + round;
        String timed = "timed-" + round;
        Lease blocker = other.lock(behind, LEASE).acquire();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger tries = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            threads.add(loop(stop, tries, () -> closing.lock(behind, LEASE).tryAcquire(Duration.ofMillis(300))
                    .ifPresent(Lease::release)));
        }
        for (int i = 0; i < 3; i++) {
            threads.add(loop(stop, tries, () -> closing.lock(handed, LEASE).tryAcquire(Duration.ofSeconds(2))
                    .ifPresent(Lease::release)));
        }
        threads.add(loop(stop, tries, () -> closing.lock(timed, LEASE).tryAcquire(Duration.ofMillis(50))
                .ifPresent(Lease::release)));
        threads.forEach(Thread::start);
        int enough = 5 + ThreadLocalRandom.current().nextInt(60);
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(1))
                .until(() -> tries.get() >= enough);
        long start = System.nanoTime();
        closing.close();
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        if (tookMs > 6_000) {
            problems.add("close took " + tookMs + " ms");
        }
        stop.set(true);
        for (Thread t : threads) {
            t.join(10_000);
            if (t.isAlive()) {
                problems.add(t.getName() + " still running after the close");
            }
        }
        blocker.release();
        for (String name : List.of(behind, handed, timed)) {
            Optional<Lease> got = other.lock(name, LEASE).tryAcquire(Duration.ofSeconds(3));
            got.ifPresent(Lease::release);
            if (got.isEmpty()) {
                problems.add("'" + name + "' still held after the close");
            }
        }
        return problems;
    }

    private interface Attempt {
        void run() throws InterruptedException;
    }

    private static Thread loop(AtomicBoolean stop, AtomicInteger tries, Attempt attempt) {
        Thread t = new Thread(() -> {
            while (!stop.get()) {
                try {
                    attempt.run();
                    tries.incrementAndGet();
                } catch (IllegalStateException closed) {
                    return;
                } catch (InterruptedException | RuntimeException e) {
                    tries.incrementAndGet();
                }
            }
        });
        t.setDaemon(true);
        return t;
    }
}
