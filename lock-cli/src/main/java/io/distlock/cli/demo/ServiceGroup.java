package io.distlock.cli.demo;

import io.distlock.cli.Durations;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The demo's services ("service A", "service B", ...): separate JVMs, each connected to the store before a scenario
 * begins so start-up time never blurs the race. Started on demand and reused by the following scenarios, because on
 * a loaded machine starting a JVM costs more than a whole race.
 */
public final class ServiceGroup implements AutoCloseable {

    static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final List<WorkerProcess> workers = new ArrayList<>();

    /** An empty group; {@link #first} starts services as they are needed. */
    public ServiceGroup() {
    }

    /**
     * The first {@code count} services, starting the missing ones (together) and connecting them to the context's
     * store; prints how long that took.
     */
    List<WorkerProcess> first(DemoContext ctx, int count) {
        if (workers.size() < count) {
            start(ctx, count);
        }
        return List.copyOf(workers.subList(0, count));
    }

    /** Starts services until there are {@code count}, so later scenarios find them ready. */
    public void ensure(DemoContext ctx, int count) {
        first(ctx, count);
    }

    private void start(DemoContext ctx, int count) {
        long start = System.nanoTime();
        PrintWriter out = ctx.out();
        int missing = count - workers.size();
        out.print("  starting " + missing + (workers.isEmpty() ? "" : " more") + " service" + (missing == 1 ? "" : "s")
                + " (separate JVMs) ... ");
        out.flush();
        List<WorkerProcess> started = new ArrayList<>();
        try {
            for (int i = workers.size(); i < count; i++) {
                WorkerProcess w = WorkerProcess.start(label(i), ctx.storeUri(), ctx.dir());
                started.add(w);
                workers.add(w);
            }
            for (WorkerProcess w : started) {
                w.await("READY", START_TIMEOUT);
            }
        } catch (RuntimeException e) {
            out.println("failed");
            throw e;
        }
        out.println("ready in " + Durations.showNanos(System.nanoTime() - start) + " (pids "
                + String.join(", ", started.stream().map(w -> Long.toString(w.pid())).toList()) + ")");
        out.flush();
    }

    /** {@code service A}, {@code service B}, ... */
    static String label(int index) {
        return "service " + (char) ('A' + index);
    }

    /**
     * Kills every service at once, also a frozen one (SIGKILL works on a stopped process): for a demo interrupted
     * with Ctrl-C, so that no service is left behind, stopped forever.
     */
    void kill() {
        for (WorkerProcess w : List.copyOf(workers)) {
            w.kill();
        }
    }

    /** Stops every service. */
    @Override
    public void close() {
        for (WorkerProcess w : workers) {
            w.close();
        }
        workers.clear();
    }
}
