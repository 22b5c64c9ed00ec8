package io.distlock.cli.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The demo's handle on one {@link DemoWorker} process: starts it with the same {@code java} binary and class path
 * as this JVM, sends it commands and waits for its answers (with a timeout, so a stuck worker never hangs the demo).
 * The worker's stderr goes to a log file, shown when it fails.
 */
final class WorkerProcess implements AutoCloseable {

    private static final String EOF = "\u0000EOF";

    private final String label;
    private final Process process;
    private final Writer stdin;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Path log;

    private WorkerProcess(String label, Process process, Path log) {
        this.label = label;
        this.process = process;
        this.log = log;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(this::pump, "distlock-demo-" + label);
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts the worker {@code label}, logging its stderr to a file in {@code dir}. */
    static WorkerProcess start(String label, Path dir) {
        Path log = dir.resolve(label.replaceAll("\\W+", "-") + ".log");
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-XX:+UseSerialGC");
        command.add("-Xmx128m");
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(DemoWorker.class.getName());
        command.add(label);
        try {
            Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
            return new WorkerProcess(label, process, log);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + label + " (" + command.get(0) + ")", e);
        }
    }

    private static String javaBinary() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    private void pump() {
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException e) {
            // the process went away; the EOF marker below tells the waiting side
        } finally {
            lines.add(EOF);
        }
    }

    String label() {
        return label;
    }

    long pid() {
        return process.pid();
    }

    /** Sends one command (fields joined by tabs). */
    void send(String... fields) {
        try {
            stdin.write(String.join(DemoWorker.SEP, fields));
            stdin.write('\n');
            stdin.flush();
        } catch (IOException e) {
            throw new DemoFailure(label + " is not accepting commands (did it exit?)" + logTail(), e);
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
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new DemoFailure(label + " gave no " + expected + " within " + timeout.toSeconds() + " s"
                            + logTail());
                }
                String line = lines.poll(Math.min(left, TimeUnit.SECONDS.toNanos(1)), TimeUnit.NANOSECONDS);
                if (line == null) {
                    tick.run();
                    continue;
                }
                if (line.equals(EOF)) {
                    throw new DemoFailure(label + " exited before answering " + expected + logTail());
                }
                String[] parts = line.split(DemoWorker.SEP, -1);
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
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DemoFailure("interrupted while waiting for " + label, e);
        }
    }

    /** Same as {@link #await(String, Duration, Runnable)} without progress ticks. */
    String[] await(String expected, Duration timeout) {
        return await(expected, timeout, () -> { });
    }

    private String logTail() {
        try {
            if (!Files.exists(log)) {
                return "";
            }
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            List<String> tail = all.subList(Math.max(0, all.size() - 15), all.size());
            return tail.isEmpty() ? "" : "\n  last lines of its log:\n    " + String.join("\n    ", tail);
        } catch (IOException e) {
            return "";
        }
    }

    /** Kills the worker without asking. */
    void kill() {
        process.destroyForcibly();
    }

    /** Asks the worker to quit, and kills it if it has not within a few seconds (also when it is paused). */
    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                send("QUIT");
            } catch (DemoFailure ignored) {
                // already gone
            }
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
