package io.distlock.chaos;

import io.distlock.tck.fixture.Signals;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ChaosWorker} in its own JVM: started, watched event by event (into a queue shared by the run), paused ({@code SIGSTOP}), resumed, killed
 * ({@code SIGKILL}) and stopped, with its whole history kept for the checker.
 */
final class WorkerProcess implements AutoCloseable {

    private final String label;
    private final Process process;
    private final PrintStream stdin;
    private final BlockingQueue<Event> live;
    private final List<Event> history = new ArrayList<>();
    private final List<String> otherLines = new ArrayList<>();
    private volatile boolean ready;
    private volatile boolean stopped;
    private volatile long heldToken;

    private WorkerProcess(String label, Process process, BlockingQueue<Event> live) {
        this.label = label;
        this.live = live;
        this.process = process;
        this.stdin = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        Thread reader = new Thread(this::pump, "chaos-worker-" + label);
        reader.setDaemon(true);
        reader.start();
    }

    static WorkerProcess start(WorkerProgram program, String storeUri, String label, String lockName, Path register,
            Duration lease, WorkerShape shape, Duration acquireTimeout, BlockingQueue<Event> live) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(shape.prefix());
        command.addAll(List.of(java, "-XX:TieredStopAtLevel=1", "-Xmx256m",
                "-cp", Classpath.current(), program.mainClass(), storeUri, label, lockName,
                register.toString(), Long.toString(lease.toMillis()), Long.toString(shape.holdMin().toMillis()),
                Long.toString(shape.holdMax().toMillis()), Long.toString(acquireTimeout.toMillis()),
                Integer.toString(shape.extendPercent())));
        command.addAll(program.extraArgs());
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.redirectError(ProcessBuilder.Redirect.DISCARD);
        try {
            return new WorkerProcess(label, builder.start(), live);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start worker " + label, e);
        }
    }

    private void pump() {
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                Event event = Event.parse(line);
                if (event != null) {
                    track(event);
                    synchronized (history) {
                        history.add(event);
                    }
                    live.add(event);
                } else if (line.equals("READY")) {
                    ready = true;
                } else if (line.equals("STOPPED")) {
                    stopped = true;
                } else {
                    synchronized (otherLines) {
                        otherLines.add(line);
                    }
                }
            }
        } catch (IOException e) {
            synchronized (otherLines) {
                otherLines.add("reader failed: " + e);
            }
        }
    }

    private void track(Event event) {
        switch (event.type()) {
            case "ACQ_OK", "ELECTED" -> heldToken = event.token();
            case "REL_OK", "REL_LOST", "REL_UNKNOWN", "REVOKED", "STEPPED_DOWN" -> heldToken = 0;
            default -> {
                // other events do not change whether the worker holds the lock
            }
        }
    }

    /**
     * Whether the worker's last acquisition (or term, for a leader) has not been released (or revoked) yet, as far
     * as its history tells.
     */
    boolean isHolding() {
        return heldToken != 0;
    }

    String label() {
        return label;
    }

    boolean isReady() {
        return ready;
    }

    List<Event> history() {
        synchronized (history) {
            return List.copyOf(history);
        }
    }

    void pause() {
        Signals.send(process.pid(), "STOP");
    }

    void resume() {
        Signals.send(process.pid(), "CONT");
    }

    void kill() {
        process.destroyForcibly();
        waitFor(Duration.ofSeconds(10));
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Asks the worker to stop after its current round; kills it if it has not stopped within {@code grace}. */
    void stop(Duration grace) {
        if (!process.isAlive()) {
            return;
        }
        Signals.send(process.pid(), "CONT");
        stdin.println("stop");
        stdin.close();
        if (!waitFor(grace)) {
            kill();
        }
    }

    private boolean waitFor(Duration d) {
        try {
            return process.waitFor(d.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    boolean stoppedCleanly() {
        return stopped;
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(15));
    }
}
