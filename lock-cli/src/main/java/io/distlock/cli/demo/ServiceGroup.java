package io.distlock.cli.demo;

import io.distlock.cli.Durations;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The demo's services ("service A", "service B", ...): separate JVMs started together, each connected to the store
 * before the scenario begins, so start-up time never blurs the race.
 */
final class ServiceGroup implements AutoCloseable {

    static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final List<WorkerProcess> workers;

    private ServiceGroup(List<WorkerProcess> workers) {
        this.workers = workers;
    }

    /** Starts {@code count} services connected to the context's store, printing how long that took. */
    static ServiceGroup start(DemoContext ctx, int count) {
        long start = System.nanoTime();
        PrintWriter out = ctx.out();
        out.print("  starting " + count + " services (separate JVMs) ... ");
        out.flush();
        List<WorkerProcess> started = new ArrayList<>();
        ServiceGroup group = new ServiceGroup(started);
        try {
            for (int i = 0; i < count; i++) {
                started.add(WorkerProcess.start(label(i), ctx.dir()));
            }
            for (WorkerProcess w : started) {
                w.send("STORE", ctx.storeUri());
            }
            for (WorkerProcess w : started) {
                w.await("READY", START_TIMEOUT, () -> { });
            }
        } catch (RuntimeException e) {
            out.println("failed");
            group.close();
            throw e;
        }
        out.println("ready in " + Durations.showNanos(System.nanoTime() - start)
                + " (pids " + started.stream().map(w -> Long.toString(w.pid())).reduce((a, b) -> a + ", " + b)
                .orElse("") + ")");
        out.flush();
        return group;
    }

    /** {@code service A}, {@code service B}, ... */
    static String label(int index) {
        return "service " + (char) ('A' + index);
    }

    List<WorkerProcess> workers() {
        return workers;
    }

    WorkerProcess get(int index) {
        return workers.get(index);
    }

    int size() {
        return workers.size();
    }

    @Override
    public void close() {
        for (WorkerProcess w : workers) {
            w.close();
        }
    }
}
