package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.awaitility.Awaitility;

/**
 * Several clients of one real store, two threads each, take and give back permits of one semaphore stating limits
 * that change in phases (mostly the phase's limit, sometimes the other), with waits, plain releases and releaseAfter.
 * A ledger of the leases held (added after the grant, removed before the release, so it never holds more than the
 * store) must always show one limit and at most that many holders; a refused limit must name both limits.
 */
public final class MixedLimitSemaphores {

    private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
    private final List<Integer> ledger = new ArrayList<>();
    private final AtomicInteger grantsOfTwo = new AtomicInteger();
    private final AtomicInteger grantsOfThree = new AtomicInteger();
    private final AtomicInteger refusals = new AtomicInteger();
    private volatile long started;

    /** Runs {@code clients} clients of {@code uri} on {@code name} for {@code seconds}, then checks. */
    public void run(String uri, String name, int clients, int seconds) throws Exception {
        List<LockStore> stores = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        try {
            for (int c = 0; c < clients; c++) {
                stores.add(LockStore.open(uri));
            }
            started = System.nanoTime();
            long until = started + TimeUnit.SECONDS.toNanos(seconds);
            for (LockStore store : stores) {
                for (int t = 0; t < 2; t++) {
                    Thread thread = new Thread(() -> work(store, name, until), "mixed-limits");
                    threads.add(thread);
                    thread.start();
                }
            }
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(seconds + 60L));
                assertThat(thread.isAlive()).as("a worker ended").isFalse();
            }
        } finally {
            stores.forEach(LockStore::close);
        }
        assertThat(problems).as("ledger breaches and unexpected failures").isEmpty();
        assertThat(grantsOfTwo.get()).as("grants stating 2").isPositive();
        assertThat(grantsOfThree.get()).as("grants stating 3").isPositive();
        assertThat(refusals.get()).as("refused limits").isPositive();
        try (LockStore after = LockStore.open(uri)) {
            // a permit released with releaseAfter keeps its minimum hold through a close and frees at its store
            // expiry (at most 30 ms + 1 s later), refusing another limit until then: wait that out
            Awaitility.await().atMost(Duration.ofSeconds(10)).ignoreException(IllegalStateException.class)
                    .until(() -> {
                        Optional<Lease> one = after.semaphore(name, 3).tryAcquire();
                        one.ifPresent(Lease::release);
                        return one.isPresent();
                    });
            List<Lease> all = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Optional<Lease> got = after.semaphore(name, 3).tryAcquire(Duration.ofSeconds(5));
                assertThat(got).as("permit " + (i + 1) + " of 3 free after every client closed").isPresent();
                all.add(got.get());
            }
            all.forEach(Lease::release);
        }
    }

    /** The phase's limit: 2 and 3 take turns every 400 ms. */
    private int phaseLimit() {
        return (System.nanoTime() - started) / TimeUnit.MILLISECONDS.toNanos(400) % 2 == 0 ? 2 : 3;
    }

    private void work(LockStore store, String name, long until) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        while (System.nanoTime() - until < 0) {
            int limit = r.nextInt(6) == 0 ? 5 - phaseLimit() : phaseLimit();
            Optional<Lease> got;
            try {
                got = store.semaphore(name, limit).tryAcquire(Duration.ofMillis(r.nextInt(40)));
            } catch (IllegalStateException refused) {
                refusals.incrementAndGet();
                String m = String.valueOf(refused.getMessage());
                if (!m.contains(String.valueOf(limit)) || !m.contains(String.valueOf(5 - limit))) {
                    problems.add("a refusal not naming both limits: " + m);
                }
                continue;
            } catch (InterruptedException | RuntimeException e) {
                problems.add("acquire stating " + limit + ": " + e);
                continue;
            }
            if (got.isEmpty()) {
                continue;
            }
            (limit == 2 ? grantsOfTwo : grantsOfThree).incrementAndGet();
            synchronized (ledger) {
                for (int held : ledger) {
                    if (held != limit) {
                        problems.add("granted stating " + limit + " while a holder stating " + held + " holds");
                    }
                }
                if (ledger.size() + 1 > limit) {
                    problems.add((ledger.size() + 1) + " holders at once of a limit of " + limit);
                }
                ledger.add(limit);
            }
            LockSupport.parkNanos(r.nextInt(5_000_000)); // the holder's work, not a synchronisation
            synchronized (ledger) {
                ledger.remove(Integer.valueOf(limit));
            }
            try {
                if (r.nextInt(3) == 0) {
                    got.get().releaseAfter(Duration.ofMillis(r.nextInt(30)));
                } else {
                    got.get().release();
                }
            } catch (RuntimeException e) {
                problems.add("release: " + e);
            }
        }
    }
}
