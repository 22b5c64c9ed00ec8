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
 * (an acquisition whose client gave up, a hold a closed client left behind).
 */
final class HolderObserver implements AutoCloseable {

    /** What the store said at one moment: the tokens holding the name. */
    record Sample(long nanos, Set<Long> tokens) {
    }

    private final LockStore direct;
    private final String name;
    private final boolean permits;
    private final List<Sample> samples = Collections.synchronizedList(new ArrayList<>());
    private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    private final Thread thread;
    private volatile boolean running = true;

    HolderObserver(String uri, String name, boolean permits) {
        this.direct = LockStore.open(uri);
        this.name = name;
        this.permits = permits;
        this.thread = new Thread(this::observe, "explore-observer");
        thread.setDaemon(true);
        thread.start();
    }

    private void observe() {
        while (running) {
            try {
                List<LockInfo> held = permits ? direct.admin().listPermits(name, 16) : direct.admin().list(name, 16);
                long now = System.nanoTime();
                samples.add(new Sample(now, held.stream().filter(i -> i.name().equals(name))
                        .map(LockInfo::fencingToken).collect(Collectors.toSet())));
            } catch (RuntimeException e) {
                failures.add(System.nanoTime() + " " + e); // the store is away (paused, restarting): no sample
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // the sampling period
        }
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
