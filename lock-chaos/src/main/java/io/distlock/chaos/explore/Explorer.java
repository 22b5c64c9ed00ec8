package io.distlock.chaos.explore;

import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import io.distlock.tck.fixture.ServerControl;
import io.distlock.tck.fixture.TempDirs;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Runs scenarios on one store's own server through a counting {@link WireProxy}: a counting run without faults, then
 * one run per (step, fault), each on a fresh name, each checked by {@link ExploreChecker}. The server and proxy live
 * for the whole session; a server fault is undone (resumed, restarted) before the run's last check.
 */
public final class Explorer implements AutoCloseable {

    private final ExploreStore store;
    private final ServerControl server;
    private final WireProxy proxy;
    private final Path dir = TempDirs.create("explore");

    /** Starts {@code store}'s own server and the proxy in front of it. */
    public Explorer(ExploreStore store) throws Exception {
        this.store = store;
        this.server = store.start();
        try {
            this.proxy = new WireProxy(server.port());
            warmUp();
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /**
     * One acquisition straight to the new server before any run: it creates the SQL tables and waits out what a
     * fresh server owes its first client (Redis's restart guard: no grant for one maxLeaseTime after it first sees
     * the server), so a run's probe is refused only by holders.
     */
    private void warmUp() {
        try (LockStore direct = LockStore.open(store.uri(server.port()))) {
            var lease = direct.lock("explore-warm-up", LockOptions.defaults().withLeaseTime(store.lease()))
                    .tryAcquire(store.lease().multipliedBy(3));
            lease.orElseThrow(() -> new IllegalStateException("the new " + store.label() + " server granted"
                    + " no lock within three leases")).release();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The store this explorer runs on. */
    public ExploreStore store() {
        return store;
    }

    /** Runs {@code scenario} once without faults and returns the labels of the round trips it made, in order. */
    public List<String> count(Scenario scenario) {
        ExploreResult r = run(scenario, 0, Fault.NONE);
        if (!r.clean()) {
            throw new IllegalStateException("the counting run of " + r.name() + " did not meet its bars: "
                    + r.violations());
        }
        return lastLabels;
    }

    private volatile List<String> lastLabels = List.of();

    /** The labels of the last run's round trips, in order. */
    List<String> lastLabels() {
        return lastLabels;
    }

    /** Runs {@code scenario} with {@code fault} at round trip {@code step} (1-based) and checks its history. */
    public ExploreResult run(Scenario scenario, int step, Fault fault) {
        RunName name = new RunName(store, scenario, step, fault);
        long start = System.nanoTime();
        String lockName = "explore-" + scenario.label() + "-" + UUID.randomUUID().toString().substring(0, 8);
        CompletableFuture<Void> undo = new CompletableFuture<>();
        if (!fault.serverFault()) {
            undo.complete(null);
        }
        RunContext ctx = new RunContext(store, client -> store.uri(proxy.portFor(client)), lockName,
                dir.resolve(lockName + ".register"));
        if (fault == Fault.SERVER_RESTORE) {
            backUp();
        }
        StoreOperator operator = new StoreOperator(store, server.port(), lockName, scenario == Scenario.SEMAPHORE);
        Revival revival = new Revival(this::backUp, () -> {
            ctx.event("server", "RESTORED_AFTER_RELEASE", 0);
            server.kill();
            later(Duration.ofMillis(300), () -> {
                restoreBackup();
                server.restart();
                bystander(lockName + "-bystander");
            }, undo);
        });
        ctx.onGrant(revival::granted);
        proxy.freezeFor(store.lease().plusSeconds(1));
        proxy.arm(step, fault, store.late(), ctx::doing, onStep(undo, ctx, operator, revival));
        if (fault == Fault.SERVER_RESTORE_MID) {
            proxy.armCopy(Math.max(1, step / 2), this::backUp);
        }
        HolderObserver observer;
        try {
            observer = new HolderObserver(store.uri(server.port()), lockName, scenario, store.lease(), revival);
        } catch (RuntimeException e) {
            throw new IllegalStateException("could not open the observing client of " + store.label(), e);
        }
        try {
            scenario.run(ctx);
        } catch (TimeoutException e) {
            ctx.violation("a client thread of the scenario did not finish within its bound");
        } catch (ExecutionException e) {
            ctx.violation("a client thread of the scenario failed: " + e.getCause());
        } catch (Exception e) {
            ctx.violation("the scenario failed: " + e);
        } finally {
            ctx.doing("end");
            ctx.close();
        }
        int steps = proxy.steps();
        lastLabels = proxy.labels();
        String injectedAt = proxy.injectedAt();
        try {
            revival.awaitKill(store.lease());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!revival.end() && fault == Fault.SERVER_RESTORE_RELEASED) {
            ctx.event("server", "NOT_RESTORED", 0); // no grant released after the step: a run without the fault
            undo.complete(null);
        }
        if (fault.serverFault() && injectedAt == null) {
            undo.complete(null);
        }
        try {
            undo.get(120, TimeUnit.SECONDS);
        } catch (Exception e) {
            ctx.violation("the server fault could not be undone: " + e);
        }
        if (!(fault.spoilsFence() && injectedAt != null)) {
            checkFree(scenario, ctx);
        }
        observer.close();
        proxy.awaitIdle(Duration.ofSeconds(2));
        boolean excused = fault.serverFault() || (injectedAt != null && injectedAt.endsWith(" close"));
        List<String> violations = ExploreChecker.check(scenario, ctx, observer.samples(), excused,
                injectedAt == null ? Fault.NONE : fault);
        int holds = (int) ctx.events().stream().filter(e -> e.type().equals("ACQ_OK")).count();
        return new ExploreResult(name, injectedAt, steps, holds, violations,
                Duration.ofNanos(System.nanoTime() - start), history(start, ctx, observer));
    }

    /** Events and changes of what the store said held the name, ms from the run's start, in time order. */
    private static List<String> history(long start, RunContext ctx, HolderObserver observer) {
        List<HolderObserver.Sample> samples = observer.samples();
        List<Object[]> lines = new ArrayList<>();
        ctx.events().forEach(e -> lines.add(new Object[] {e.nanos(), e.worker() + " " + e.type() + " " + e.token()}));
        java.util.Set<Long> last = null;
        for (HolderObserver.Sample x : samples) {
            if (!x.tokens().equals(last)) {
                lines.add(new Object[] {x.nanos(), "store holds " + x.tokens()});
                last = x.tokens();
            }
        }
        String lastFailure = null;
        for (String f : observer.failures()) {
            String what = f.substring(f.indexOf(' ') + 1);
            if (!what.equals(lastFailure)) {
                lines.add(new Object[] {Long.parseLong(f.substring(0, f.indexOf(' '))), "store listing failed: "
                        + what});
                lastFailure = what;
            }
        }
        lines.sort(java.util.Comparator.comparingLong(o -> (long) o[0]));
        return lines.stream().map(o -> String.format("%8.3f s  %s", ((long) o[0] - start) / 1e9, o[1])).toList();
    }

    /** A fresh client straight to the server must get the name within two leases and an operation bound. */
    private void checkFree(Scenario scenario, RunContext ctx) {
        Duration within = store.lease().multipliedBy(2).plus(ctx.opBound());
        ctx.doing("free check");
        boolean free = false;
        long deadline = System.nanoTime() + within.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() - deadline < 0) { // a server just back may refuse the first connection
            try (LockStore direct = LockStore.open(store.uri(server.port()))) {
                free = scenario.free(direct, ctx.name, LockOptions.defaults().withLeaseTime(store.lease()), within);
                last = null;
                break;
            } catch (StoreUnavailableException e) {
                last = e;
            } catch (RuntimeException e) {
                last = e;
                break;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (last != null) {
            ctx.violation("the free check could not run: " + last);
            return;
        }
        if (!free) {
            ctx.violation("the name stayed held by nobody alive: every client closed, a fresh client did not get it"
                    + " within " + within.toMillis() + " ms");
        }
    }

    /**
     * What a fault the proxy does not do itself does at its step: pause or kill the server ({@code undo} completes when
     * it is back), close the requesting client's store, or an operator's action on the store's data.
     */
    private java.util.function.BiConsumer<Fault, String> onStep(CompletableFuture<Void> undo, RunContext ctx,
            StoreOperator operator, Revival revival) {
        return (fault, client) -> {
            if (fault == Fault.SERVER_RESTORE_RELEASED) {
                revival.arm();
            } else if (fault == Fault.STORE_CLOSE) {
                ctx.client(client).ifPresent(s -> {
                    ctx.event(client, "STORE_CLOSED", 0);
                    Thread t = new Thread(s::close, "explore-store-close");
                    t.setDaemon(true);
                    t.start();
                });
            } else if (fault == Fault.SILENT_DROP) {
                ctx.event(client, "CONNECTIONS_SILENCED", proxy.silenced());
            } else if (fault.operatorFault()) {
                try {
                    ctx.event("operator", operator.act(fault, store.late()), 0);
                } catch (Exception e) {
                    ctx.event("operator", "failed: " + e, 0);
                }
            } else if (fault == Fault.SERVER_PAUSE) {
                server.pause();
                // past the lease and past every call's bound: a call that waits for the server, not its own
                // timeout, shows as a call that did not return in time
                later(ctx.opBound().plusSeconds(1), server::resume, undo);
            } else if (fault == Fault.SERVER_RESTART) {
                server.kill();
                later(Duration.ofMillis(300), server::restart, undo);
            } else if (fault == Fault.SERVER_RESTART_SOON) {
                later(Duration.ofMillis(100), () -> { // the request passes and is answered meanwhile
                    server.kill();
                    java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(300).toNanos()); // the outage
                    server.restart();
                }, undo);
            } else if (fault == Fault.SERVER_RESTORE || fault == Fault.SERVER_RESTORE_MID) {
                server.kill();
                later(Duration.ofMillis(300), () -> {
                    restoreBackup();
                    server.restart();
                }, undo);
            }
        };
    }

    /**
     * Another user of the restored server: acquires and releases {@code name} on a client of its own, 20 times within
     * two seconds, so the server's transaction ids pass those a client saw before the crash and that client may
     * resume its session there (ZooKeeper refuses a client that has seen a later zxid than its own last one).
     */
    private void bystander(String name) {
        long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        try (LockStore direct = LockStore.open(store.uri(server.port()))) {
            var lock = direct.lock(name, LockOptions.defaults().withLeaseTime(store.lease()));
            for (int i = 0; i < 20 && System.nanoTime() - deadline < 0; i++) {
                try {
                    lock.tryAcquire(Duration.ofMillis(500)).ifPresent(io.distlock.Lease::release);
                } catch (StoreUnavailableException e) {
                    // the server is still coming back: the next round tries again
                }
            }
        } catch (StoreUnavailableException e) {
            // the server did not take the bystander: the holder resumes only if others write
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Copies the server's data directory aside (the backup a restore puts back). Synchronized with
     * {@link #restoreBackup}: the copy runs on the proxy thread of its step while later steps go on, so the fault's
     * restore can come while it is still copying.
     */
    private synchronized void backUp() {
        Path data = store.dataDirectory(server).orElseThrow(() -> new IllegalArgumentException(
                "the explorer cannot restore " + store.label() + " from a copy"));
        Path backup = dir.resolve("backup");
        for (int attempt = 1; ; attempt++) {
            TempDirs.delete(backup);
            try {
                TempDirs.copy(data, backup);
                return;
            } catch (java.io.UncheckedIOException e) {
                if (attempt == 3) { // a running server removes old files (ZooKeeper's purged snapshots) as we copy
                    throw e;
                }
            }
        }
    }

    /** Replaces the (stopped) server's data directory by the backup, once the backup is complete. */
    private synchronized void restoreBackup() {
        Path data = store.dataDirectory(server).orElseThrow();
        TempDirs.delete(data);
        TempDirs.copy(dir.resolve("backup"), data);
    }

    private static void later(Duration after, Runnable action, CompletableFuture<Void> done) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(after.toMillis()); // the outage itself
                action.run();
                done.complete(null);
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        }, "explore-undo");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Every run of {@code scenario}: a counting run, then each step in {@code steps} (all when empty) with each of
     * {@code faults}, reported to {@code progress} as they finish.
     */
    public List<ExploreResult> enumerate(Scenario scenario, List<Fault> faults, List<Integer> steps,
            Consumer<ExploreResult> progress) {
        List<String> labels = count(scenario);
        List<Integer> chosen = steps.isEmpty() ? range(labels.size()) : steps;
        List<ExploreResult> results = new ArrayList<>();
        for (int step : chosen) {
            for (Fault fault : faults) {
                ExploreResult r = run(scenario, step, fault);
                results.add(r);
                progress.accept(r);
            }
        }
        return results;
    }

    private static List<Integer> range(int n) {
        List<Integer> all = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            all.add(i);
        }
        return all;
    }

    @Override
    public void close() {
        proxy.close();
        server.close();
        TempDirs.delete(dir);
    }
}
