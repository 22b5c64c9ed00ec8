package io.distlock.chaos;

import io.distlock.tck.process.JvmProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A worker of the fault runs ({@link ChaosWorker}, or another {@link WorkerProgram}) in its own JVM, on the kit's
 * {@link JvmProcess}: started with the store URI on stdin, watched event by event (into a queue shared by the run),
 * paused ({@code SIGSTOP}), resumed, killed ({@code SIGKILL}) and stopped, with its whole history kept for the
 * checker.
 */
final class WorkerProcess implements AutoCloseable {

    private final String label;
    private final BlockingQueue<Event> live;
    private final List<Event> history = new ArrayList<>();
    private final JvmProcess process;
    private volatile boolean ready;
    /** The tokens held by the worker's threads, by thread label (one entry for a single-threaded worker). */
    private final Map<String, Long> heldTokens = new ConcurrentHashMap<>();

    private WorkerProcess(String label, BlockingQueue<Event> live, JvmProcess.Builder builder) {
        this.label = label;
        this.live = live;
        this.process = builder.onLine(this::take).start();
    }

    static WorkerProcess start(WorkerProgram program, String storeUri, String label, String lockName, Path register,
            Duration lease, WorkerShape shape, Duration acquireTimeout, BlockingQueue<Event> live) {
        List<String> args = new ArrayList<>(List.of(label, lockName, register.toString(),
                Long.toString(lease.toMillis()), Long.toString(shape.holdMin().toMillis()),
                Long.toString(shape.holdMax().toMillis()), Long.toString(acquireTimeout.toMillis()),
                Integer.toString(shape.extendPercent())));
        args.addAll(program.extraArgs());
        return new WorkerProcess(label, live, JvmProcess.builder(label, program.mainClass())
                .prefix(shape.prefix())
                .jvmOptions("-XX:TieredStopAtLevel=1", "-Xmx256m")
                .args(args.toArray(String[]::new))
                .storeUri(storeUri));
    }

    /** One line of the worker's stdout, on the reader thread. */
    private void take(String line) {
        Event event = Event.parse(line);
        if (event != null) {
            track(event);
            synchronized (history) {
                history.add(event);
            }
            live.add(event);
        } else if (line.equals("READY")) {
            ready = true;
        }
        // other lines (STOPPED, the stdin watcher's notes) tell the run nothing
    }

    private void track(Event event) {
        switch (event.type()) {
            case "ACQ_OK", "ELECTED" -> heldTokens.put(event.worker(), event.token());
            case "REL_OK", "REL_LOST", "REL_UNKNOWN", "REVOKED", "STEPPED_DOWN" -> heldTokens.remove(event.worker());
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
        return !heldTokens.isEmpty();
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
        process.pause();
    }

    void resume() {
        process.resume();
    }

    void kill() {
        process.kill();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Asks the worker to stop after its current round; kills it if it has not stopped within {@code grace}. */
    void stop(Duration grace) {
        process.stop("stop", grace);
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(15));
    }
}
