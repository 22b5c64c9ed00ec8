package io.distlock.cli.demo;

import io.distlock.tck.process.JvmProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The demo's handle on one {@link DemoWorker} process (a {@link JvmProcess} with the same class path as this JVM):
 * sends it the store URI over stdin, then commands, and waits for its answers (with a timeout, so a stuck worker
 * never hangs the demo). The worker's stderr goes to a log file, shown when it fails.
 */
final class WorkerProcess implements AutoCloseable {

    private final String label;
    private final JvmProcess process;

    private WorkerProcess(String label, JvmProcess process) {
        this.label = label;
        this.process = process;
    }

    /**
     * Starts the worker {@code label} on {@code storeUri} (sent over stdin, so a password never shows in {@code ps}),
     * logging its stderr to a file in {@code dir}; it answers {@code READY} once it has opened the store.
     */
    static WorkerProcess start(String label, String storeUri, Path dir) {
        JvmProcess process = JvmProcess.builder(label, DemoWorker.class)
                .jvmOptions("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m",
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn")
                .args(label)
                .storeUri(storeUri)
                .stderrTo(dir.resolve(label.replaceAll("\\W+", "-") + ".log"))
                .start();
        return new WorkerProcess(label, process);
    }

    String label() {
        return label;
    }

    long pid() {
        return process.pid();
    }

    /** Sends one command (fields joined by tabs). */
    void send(String... fields) {
        if (!process.send(String.join(DemoWorker.SEP, fields))) {
            throw new DemoFailure(label + " is not accepting commands (did it exit?)" + logTail());
        }
    }

    /**
     * Waits for the answer starting with {@code expected}, calling {@code tick} about once a second meanwhile.
     *
     * @return the answer's fields after the first
     * @throws DemoFailure if the worker answers {@code ERROR}, exits, or takes longer than {@code timeout}
     */
    String[] await(String expected, Duration timeout, Runnable tick) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new DemoFailure(label + " gave no " + expected + " within " + timeout.toSeconds() + " s"
                        + logTail());
            }
            Optional<String> line = process.nextLine(Duration.ofNanos(Math.min(left, TimeUnit.SECONDS.toNanos(1))));
            if (line.isEmpty()) {
                if (process.ended()) {
                    throw new DemoFailure(label + " exited before answering " + expected + logTail());
                }
                tick.run();
                continue;
            }
            String[] parts = line.get().split(DemoWorker.SEP, -1);
            if (parts[0].equals("ERROR")) {
                throw new DemoFailure(label + " failed: " + (parts.length > 1 ? parts[1] : "") + logTail());
            }
            if (parts[0].equals(expected)) {
                String[] rest = new String[parts.length - 1];
                System.arraycopy(parts, 1, rest, 0, rest.length);
                return rest;
            }
            // any other output is ignored (a worker prints only protocol lines on stdout)
        }
    }

    /** Same as {@link #await(String, Duration, Runnable)} without progress ticks. */
    String[] await(String expected, Duration timeout) {
        return await(expected, timeout, () -> { });
    }

    private String logTail() {
        List<String> tail = process.errorTail(15);
        return tail.isEmpty() ? "" : "\n  last lines of its log:\n    " + String.join("\n    ", tail);
    }

    /** Freezes the worker with SIGSTOP, as a long GC pause would. */
    void pause() {
        process.pause();
    }

    /** Resumes a frozen worker with SIGCONT. */
    void resume() {
        process.resume();
    }

    /** Kills the worker without asking. */
    void kill() {
        process.killNow();
    }

    /** Asks the worker to quit, and kills it if it has not within a few seconds (also when it is paused). */
    @Override
    public void close() {
        process.stop("QUIT", Duration.ofSeconds(5));
    }
}
