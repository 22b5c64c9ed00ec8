package io.distlock.chaos.explore;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import io.distlock.chaos.Event;
import io.distlock.tck.check.FencedRegister;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What a scenario run works with: the clients' store URI (through the proxy), the name of this run, the fenced
 * register, and the recorded history in the fault suite's {@link Event} form. Every client call goes through
 * {@link #bounded}: a call that does not return within its bound (what it asked to wait plus one operation bound)
 * is a violation, and the run goes on without it.
 */
final class RunContext implements AutoCloseable {

    final ExploreStore store;
    private final java.util.function.Function<String, String> uriFor;
    private final java.util.Map<String, LockStore> byClient = new java.util.concurrent.ConcurrentHashMap<>();
    final String name;
    final FencedRegister register;
    private final List<Event> events = Collections.synchronizedList(new ArrayList<>());
    private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
    private final List<LockStore> opened = Collections.synchronizedList(new ArrayList<>());
    private final ExecutorService calls = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "explore-call");
        t.setDaemon(true);
        return t;
    });
    private volatile String doing = "setup";
    private volatile java.util.function.LongConsumer onGrant = token -> { };

    /** {@code uriFor} gives each client (A, B, C) its URI: through the proxy, on the client's own port. */
    RunContext(ExploreStore store, java.util.function.Function<String, String> uriFor, String name,
            Path registerFile) {
        this.store = store;
        this.uriFor = uriFor;
        this.name = name;
        this.register = new FencedRegister(registerFile);
    }

    /** How long one store operation may take beyond what it asked to wait (one timeout, and slack for load). */
    Duration opBound() {
        return store.callBound();
    }

    /** Hears of every grant to a scenario client, with its token, while it is held (before it is recorded). */
    void onGrant(java.util.function.LongConsumer listener) {
        onGrant = listener;
    }

    /** What the scenario does now: the label of the steps seen from here on. */
    void doing(String what) {
        doing = what;
    }

    String doing() {
        return doing;
    }

    List<Event> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }

    List<String> violations() {
        synchronized (violations) {
            return List.copyOf(violations);
        }
    }

    void violation(String what) {
        violations.add(what);
    }

    void event(String worker, String type, long token) {
        event(worker, type, token, System.nanoTime());
    }

    void event(String worker, String type, long token, long nanos) {
        events.add(new Event(worker, nanos, type, token));
    }

    /** Opens a client of the store through the proxy; empty if it cannot (the store unreachable at that step). */
    Optional<LockStore> open(String client) {
        doing(client + " open");
        String uri = uriFor.apply(client);
        Optional<LockStore> store = bounded(client + " open", opBound().multipliedBy(2), () -> LockStore.open(uri));
        store.ifPresent(opened::add);
        store.ifPresent(s -> byClient.put(client, s));
        return store;
    }

    /** The store client {@code client} opened, if it did. */
    Optional<LockStore> client(String client) {
        return Optional.ofNullable(byClient.get(client));
    }

    /**
     * Runs {@code call} and waits at most {@code bound} for it: empty if it threw a store exception (recorded by the
     * caller's own catch otherwise) or did not return in time (a violation: every wait is bounded).
     */
    <T> Optional<T> bounded(String what, Duration bound, Callable<T> call) {
        Future<T> f = calls.submit(call);
        try {
            return Optional.ofNullable(f.get(bound.toMillis(), TimeUnit.MILLISECONDS));
        } catch (TimeoutException e) {
            violation(what + " did not return within " + bound.toMillis() + " ms");
            return Optional.empty();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r && !(r instanceof StoreUnavailableException)
                    && !(r instanceof io.distlock.LockException) && !(r instanceof IllegalStateException)) {
                violation(what + " threw " + r);
            }
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Runs {@code call} in the background (a waiting thread of a client). */
    <T> Future<T> background(Callable<T> call) {
        return calls.submit(call);
    }

    /** An acquisition that waits at most what it says. */
    @FunctionalInterface
    interface Acquisition {
        Optional<Lease> tryAcquire() throws InterruptedException;
    }

    /** A timed acquisition that waits at most the wait it is given. */
    @FunctionalInterface
    interface TimedAcquisition {
        Optional<Lease> tryAcquire(Duration maxWait) throws InterruptedException;
    }

    /**
     * An acquisition that waits {@code maxWait} in all through an outage, as an application's waiter does: a store
     * call failing with {@link StoreUnavailableException} (a connection reset by a server restart, say) is tried
     * again 100 ms later with the wait left, so the waiter is still waiting when the server comes back.
     */
    static Acquisition throughOutages(Duration maxWait, TimedAcquisition acquisition) {
        return () -> {
            long deadline = System.nanoTime() + maxWait.toNanos();
            while (true) {
                try {
                    return acquisition.tryAcquire(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
                } catch (StoreUnavailableException e) {
                    if (deadline - System.nanoTime() < OUTAGE_RETRY.toNanos()) {
                        throw e;
                    }
                    work(OUTAGE_RETRY);
                }
            }
        };
    }

    private static final Duration OUTAGE_RETRY = Duration.ofMillis(100);

    /**
     * Acquires for {@code worker}, recorded as the fault suite's workers do (ACQ_INVOKE, then ACQ_OK with the token
     * and later its LOST_SIGNAL, ACQ_FAIL or ACQ_UNKNOWN); the call must return within {@code maxWait} plus one
     * operation bound.
     */
    Optional<Lease> acquire(String worker, Duration maxWait, Acquisition acquisition) {
        doing(worker + " acquire");
        event(worker, "ACQ_INVOKE", 0);
        Optional<Optional<Lease>> got = bounded(worker + " acquire", maxWait.plus(opBound()), () -> {
            try {
                Optional<Lease> lease = acquisition.tryAcquire();
                if (lease.isEmpty()) {
                    event(worker, "ACQ_FAIL", 0);
                }
                return lease;
            } catch (StoreUnavailableException e) {
                event(worker, "ACQ_UNKNOWN", 0);
                return Optional.empty();
            } catch (RuntimeException e) {
                event(worker, "ACQ_ERROR", 0); // refused, e.g. its client was closed under it
                throw e;
            }
        });
        if (got.isEmpty() || got.get().isEmpty()) {
            return Optional.empty();
        }
        Lease lease = got.get().get();
        long token = lease.fencingToken();
        onGrant.accept(token);
        event(worker, "ACQ_OK", token);
        lease.onLost(e -> event(worker, "LOST_SIGNAL", token));
        watchValidity(worker, lease);
        return Optional.of(lease);
    }

    /**
     * Records INVALID the first time {@code lease.isValid()} answers false (polled every 50 ms): a holder that checks
     * its lease before acting knows from then on, whether or not a loss is signalled.
     */
    void watchValidity(String worker, Lease lease) {
        long token = lease.fencingToken();
        Thread t = new Thread(() -> {
            while (!closed) {
                if (!lease.isValid()) {
                    event(worker, "INVALID", token);
                    return;
                }
                work(java.time.Duration.ofMillis(50));
            }
        }, "explore-validity");
        t.setDaemon(true);
        t.start();
    }

    private volatile boolean closed;

    /** A fenced read and write of the register with the lease's token, as the fault suite's workers do. */
    void write(String worker, Lease lease) {
        long token = lease.fencingToken();
        FencedRegister.Read read = register.read(token);
        if (!read.accepted()) {
            event(worker, "READ_REFUSED", token);
            return;
        }
        long issued = System.nanoTime();
        FencedRegister.Write w = register.write(token, read.value(), read.value() + 1);
        event(worker, !w.accepted() ? "WRITE_REFUSED" : w.lostUpdate() ? "WRITE_LOST_UPDATE" : "WRITE_OK", token,
                issued);
    }

    /** {@code lease.extend(time)}, recorded as EXT_OK, EXT_LOST or EXT_UNKNOWN. */
    void extend(String worker, Lease lease, Duration time) {
        doing(worker + " extend");
        long token = lease.fencingToken();
        Optional<Boolean> ok = bounded(worker + " extend", opBound(), () -> {
            try {
                return lease.extend(time);
            } catch (StoreUnavailableException e) {
                event(worker, "EXT_UNKNOWN", token);
                return null;
            }
        });
        ok.ifPresent(b -> event(worker, b ? "EXT_OK" : "EXT_LOST", token));
    }

    /** Releases (the hold ends when release is called), recorded as REL_OK, REL_LOST or REL_UNKNOWN. */
    void release(String worker, Lease lease, String what) {
        doing(worker + " " + what);
        long token = lease.fencingToken();
        long releasing = System.nanoTime();
        Optional<String> outcome = bounded(worker + " " + what, opBound(), () -> {
            try {
                lease.release();
                return "REL_OK";
            } catch (LockLostException e) {
                return "REL_LOST";
            } catch (StoreUnavailableException e) {
                return "REL_UNKNOWN";
            }
        });
        event(worker, outcome.orElse("REL_UNKNOWN"), token, releasing);
    }

    /** {@code releaseAfter(minHeld)}: the holder stops acting when it calls it, so its hold ends there. */
    void releaseAfter(String worker, Lease lease, Duration minHeld) {
        doing(worker + " releaseAfter");
        long token = lease.fencingToken();
        long releasing = System.nanoTime();
        Optional<String> outcome = bounded(worker + " releaseAfter", opBound(), () -> {
            try {
                lease.releaseAfter(minHeld);
                return "REL_OK";
            } catch (LockLostException e) {
                return "REL_LOST";
            } catch (StoreUnavailableException e) {
                return "REL_UNKNOWN";
            }
        });
        event(worker, outcome.orElse("REL_UNKNOWN"), token, releasing);
    }

    /** Closes a client; the leases of {@code holders} (worker, lease) end when close is called. */
    void close(String client, LockStore store, List<Held> holders) {
        doing(client + " close");
        long closing = System.nanoTime();
        bounded(client + " close", opBound().multipliedBy(2), () -> {
            store.close();
            return Boolean.TRUE;
        });
        for (Held h : holders) {
            event(h.worker(), "REL_OK", h.lease().fencingToken(), closing);
        }
    }

    /** A lease a worker holds when its client closes. */
    record Held(String worker, Lease lease) {
    }

    /** Pauses the scenario itself (a holder's own work), not a synchronisation. */
    static void work(Duration d) {
        java.util.concurrent.locks.LockSupport.parkNanos(d.toNanos());
    }

    @Override
    public void close() {
        List<LockStore> all;
        synchronized (opened) {
            all = List.copyOf(opened);
        }
        for (LockStore s : all) {
            bounded("closing a client at the end", opBound().multipliedBy(2), () -> {
                s.close();
                return Boolean.TRUE;
            });
        }
        calls.shutdownNow();
        closed = true;
    }
}
