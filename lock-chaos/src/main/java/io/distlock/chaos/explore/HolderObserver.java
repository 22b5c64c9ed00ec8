package io.distlock.chaos.explore;

import io.distlock.LockInfo;
import io.distlock.LockStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * Asks the store itself, straight and not through the proxy, every 100 ms which fencing tokens hold the run's name
 * (the operator's admin listing), so the checker can tell a name held by a live holder from one held by nobody alive
 * (an acquisition whose client gave up, a hold a closed client left behind). When the listing shows room, a
 * {@code tryAcquire} probe with no wait asks again the way a client would: if the store refuses it, something the
 * listing does not show keeps the name, and the sample holds {@link #UNLISTED} for it.
 */
final class HolderObserver implements AutoCloseable {

    /** What the store said at one moment: the tokens holding the name. */
    record Sample(long nanos, Set<Long> tokens) {
    }

    /** The token of a sample's holder the listing does not show (a probe was refused with room in the listing). */
    static final long UNLISTED = -1;

    private final LockStore direct;
    private final String name;
    private final boolean permits;
    private final int limit;
    private final io.distlock.LockOptions probeOptions;
    private final List<Sample> samples = Collections.synchronizedList(new ArrayList<>());
    private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    private final Revival revival;
    private final Thread thread;
    private volatile boolean running = true;

    /** {@code revival} hears of every listing and of every grant of the observer's probe. */
    HolderObserver(String uri, String name, Scenario scenario, java.time.Duration lease, Revival revival) {
        this.revival = revival;
        this.direct = LockStore.open(uri);
        this.name = name;
        this.permits = scenario == Scenario.SEMAPHORE;
        this.limit = scenario.limit();
        this.probeOptions = io.distlock.LockOptions.defaults().withLeaseTime(lease);
        this.thread = new Thread(this::observe, "explore-observer");
        thread.setDaemon(true);
        thread.start();
    }

    private void observe() {
        while (running) {
            try {
                long begun = System.nanoTime();
                List<LockInfo> held = permits ? direct.admin().listPermits(name, 16) : direct.admin().list(name, 16);
                long now = System.nanoTime();
                Set<Long> tokens = held.stream().filter(i -> i.name().equals(name))
                        .map(LockInfo::fencingToken).collect(Collectors.toSet());
                revival.listed(tokens, begun);
                if (tokens.size() < limit && !probe()) {
                    tokens = new java.util.HashSet<>(tokens);
                    tokens.add(UNLISTED);
                }
                samples.add(new Sample(now, Set.copyOf(tokens)));
            } catch (RuntimeException e) {
                failures.add(System.nanoTime() + " " + e); // the store is away (paused, restarting): no sample
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // the sampling period
        }
    }

    /** Whether a zero-wait acquisition of the name (one permit) succeeds; it is released at once. */
    private boolean probe() {
        java.util.Optional<io.distlock.Lease> got;
        try {
            got = permits ? direct.semaphore(name, limit, probeOptions).tryAcquire(java.time.Duration.ZERO)
                    : direct.lock(name, probeOptions).tryAcquire(java.time.Duration.ZERO);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
        got.ifPresent(l -> revival.granted(l.fencingToken()));
        got.ifPresent(io.distlock.Lease::release);
        return got.isPresent();
    }

    /** The samples so far, in time order. */
    List<Sample> samples() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    /** The listings that failed: nanoTime, a space, the exception. */
    List<String> failures() {
        synchronized (failures) {
            return List.copyOf(failures);
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        direct.close();
    }
}
