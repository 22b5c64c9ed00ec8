package io.distlock.tck.process;

import io.distlock.tck.check.CriticalSection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A lock client running in a separate JVM with this JVM's class path ({@link LockClientMain}), so a test can make it
 * acquire and release, and kill ({@code SIGKILL}) or pause ({@code SIGSTOP}) it while it holds a lock, for real.
 * The store URI reaches it over stdin ({@link JvmProcess}), never on its command line.
 */
public final class LockClientProcess implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final String label;
    private final JvmProcess process;

    private LockClientProcess(String label, JvmProcess process) {
        this.label = label;
        this.process = process;
    }

    /** Starts a client of {@code storeUri} named {@code label} and waits until it has opened the store. */
    public static LockClientProcess start(String storeUri, String label) {
        JvmProcess process = JvmProcess.builder(label, LockClientMain.class)
                .jvmOptions("-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Xmx256m")
                .args(label)
                .storeUri(storeUri)
                .inheritStderr()
                .start();
        LockClientProcess client = new LockClientProcess(label, process);
        client.expect("READY", START_TIMEOUT);
        return client;
    }

    /** Sends one command line. */
    public void send(String command) {
        process.send(command);
    }

    /** Acquires {@code name} (waiting as long as it takes, up to {@code timeout}) and returns the fencing token. */
    public long acquire(String name, Duration lease, boolean autoRenew, Duration timeout) {
        send("acquire " + LockClientMain.encode(name) + " " + lease.toMillis() + " " + autoRenew);
        return Long.parseLong(expect("ACQUIRED", timeout).substring("ACQUIRED ".length()));
    }

    /** Campaigns for leadership {@code name} in the other JVM (renewed leases); returns its term once elected. */
    public long lead(String name, Duration lease, Duration timeout) {
        send("lead " + LockClientMain.encode(name) + " " + lease.toMillis());
        return Long.parseLong(expect("ELECTED", timeout).substring("ELECTED ".length()));
    }

    /** Acquires one permit of semaphore {@code name} with limit {@code permits}; returns its fencing token. */
    public long acquirePermit(String name, int permits, Duration lease, boolean autoRenew, Duration timeout) {
        send("permit " + LockClientMain.encode(name) + " " + permits + " " + lease.toMillis() + " " + autoRenew);
        return Long.parseLong(expect("ACQUIRED", timeout).substring("ACQUIRED ".length()));
    }

    /** Holds a permit of {@code name} for {@code pause}, {@code rounds} times; returns the sections it recorded. */
    public List<CriticalSection> permitWork(String name, int permits, int rounds, Duration pause, Duration timeout) {
        send("permitwork " + LockClientMain.encode(name) + " " + permits + " " + rounds + " " + pause.toMillis());
        return sections(timeout);
    }

    /** Runs the read-pause-write workload and returns the critical sections it recorded. */
    public List<CriticalSection> work(String name, int rounds, Path counterFile, Duration pause, Duration timeout) {
        send("work " + LockClientMain.encode(name) + " " + rounds + " " + counterFile + " " + pause.toMillis());
        return sections(timeout);
    }

    private List<CriticalSection> sections(Duration timeout) {
        List<CriticalSection> sections = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String line = next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if (line.startsWith("SECTION")) {
                sections.add(CriticalSection.parse(line));
            } else if (line.equals("DONE")) {
                return sections;
            } else if (line.startsWith("ERROR") || line.equals("EXITED")) {
                throw new AssertionError(label + " failed during work: " + line + "; transcript "
                        + process.transcript());
            }
        }
    }

    /** Waits for the next line starting with {@code prefix}, failing on ERROR, exit or timeout. */
    public String expect(String prefix, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError(label + ": no '" + prefix + "' within " + timeout + "; transcript "
                        + process.transcript());
            }
            String line = next(Duration.ofNanos(left));
            if (line.startsWith(prefix)) {
                return line;
            }
            if (line.startsWith("ERROR") || line.equals("EXITED")) {
                throw new AssertionError(label + ": expected '" + prefix + "' but got '" + line + "'; transcript "
                        + process.transcript());
            }
        }
    }

    /** The next line, or {@code EXITED} once the client's output has ended. */
    private String next(Duration timeout) {
        Optional<String> line = process.nextLine(timeout);
        if (line.isPresent()) {
            return line.get();
        }
        if (process.ended()) {
            return "EXITED";
        }
        throw new AssertionError(label + ": no output within " + timeout + "; transcript " + process.transcript());
    }

    /** The process id, for signals. */
    public long pid() {
        return process.pid();
    }

    /** Freezes the client with SIGSTOP, as a long GC pause or a stopped VM would. */
    public void pause() {
        process.pause();
    }

    /** Resumes a paused client with SIGCONT. */
    public void resume() {
        process.resume();
    }

    /** Kills the client with SIGKILL: no release, no shutdown hook, as a crash. */
    public void kill() {
        process.kill();
    }

    /** Asks the client to exit, killing it if it does not within 10 s. */
    @Override
    public void close() {
        process.stop("exit", Duration.ofSeconds(10));
    }

    @Override
    public String toString() {
        return "LockClientProcess[" + label + ", pid " + process.pid() + "]";
    }
}
