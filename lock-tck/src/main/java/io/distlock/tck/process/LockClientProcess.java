package io.distlock.tck.process;

import io.distlock.tck.fixture.Signals;
import io.distlock.tck.check.CriticalSection;
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
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A lock client running in a separate JVM with this JVM's class path ({@link LockClientMain}), so a test can make it
 * acquire and release, and kill ({@code SIGKILL}) or pause ({@code SIGSTOP}) it while it holds a lock, for real.
 */
public final class LockClientProcess implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final String label;
    private final Process process;
    private final PrintStream in;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> transcript = new ArrayList<>();

    private LockClientProcess(String label, Process process) {
        this.label = label;
        this.process = process;
        this.in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        Thread reader = new Thread(this::pump, "lock-client-" + label + "-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts a client of {@code storeUri} named {@code label} and waits until it has opened the store. */
    public static LockClientProcess start(String storeUri, String label) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        ProcessBuilder builder = new ProcessBuilder(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Xmx256m",
                "-cp", classPath, LockClientMain.class.getName(), storeUri, label);
        builder.redirectError(ProcessBuilder.Redirect.INHERIT);
        LockClientProcess client;
        try {
            client = new LockClientProcess(label, builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException("could not start a lock client JVM", e);
        }
        client.expect("READY", START_TIMEOUT);
        return client;
    }

    private void pump() {
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException e) {
            lines.add("ERROR reader: " + e);
        }
        lines.add("EXITED");
    }

    /** Sends one command line. */
    public void send(String command) {
        in.println(command);
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
                throw new AssertionError(label + " failed during work: " + line + "; transcript " + transcript);
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
                        + transcript);
            }
            String line = next(Duration.ofNanos(left));
            if (line.startsWith(prefix)) {
                return line;
            }
            if (line.startsWith("ERROR") || line.equals("EXITED")) {
                throw new AssertionError(label + ": expected '" + prefix + "' but got '" + line + "'; transcript "
                        + transcript);
            }
        }
    }

    private String next(Duration timeout) {
        try {
            String line = lines.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new AssertionError(label + ": no output within " + timeout + "; transcript " + transcript);
            }
            transcript.add(line);
            return line;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + label, e);
        }
    }

    /** The process id, for signals. */
    public long pid() {
        return process.pid();
    }

    /** Freezes the client with SIGSTOP, as a long GC pause or a stopped VM would. */
    public void pause() {
        Signals.send(pid(), "STOP");
    }

    /** Resumes a paused client with SIGCONT. */
    public void resume() {
        Signals.send(pid(), "CONT");
    }

    /** Kills the client with SIGKILL: no release, no shutdown hook, as a crash. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Asks the client to exit, killing it if it does not within 10 s. */
    @Override
    public void close() {
        if (process.isAlive()) {
            Signals.send(pid(), "CONT");
            send("exit");
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    kill();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                kill();
            }
        }
    }

    @Override
    public String toString() {
        return "LockClientProcess[" + label + ", pid " + process.pid() + "]";
    }
}
