package io.distlock.tck.process;

import io.distlock.tck.fixture.Signals;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A JVM of a test's own, started with this JVM's class path and driven line by line: lines sent to its stdin, its
 * stdout read line by line (queued for {@link #nextLine}, or handed to a listener), and paused ({@code SIGSTOP}),
 * resumed, killed ({@code SIGKILL}) or stopped. A store URI is sent as the first line of stdin, never on the
 * command line, so a password in it never shows in {@code ps}; the child reads it with {@link #readStoreUri}. The
 * demo's services, the kit's lock clients and the fault suite's workers each keep only their own protocol on top.
 */
public final class JvmProcess implements AutoCloseable {

    private static final String END = new String("end of output"); // compared by identity: no line is this object

    private final String label;
    private final Process process;
    private final PrintStream stdin;
    private final Path errorLog;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> transcript = new ArrayList<>();
    private volatile boolean ended;

    private JvmProcess(String label, Process process, Path errorLog, Consumer<String> listener) {
        this.label = label;
        this.process = process;
        this.errorLog = errorLog;
        this.stdin = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> pump(listener), "jvm-process-" + label);
        reader.setDaemon(true);
        reader.start();
    }

    /** A builder of a JVM named {@code label} (for messages and thread names) running {@code mainClass}. */
    public static Builder builder(String label, String mainClass) {
        return new Builder(label, mainClass);
    }

    /** {@link #builder(String, String)} with the class's name. */
    public static Builder builder(String label, Class<?> mainClass) {
        return new Builder(label, mainClass.getName());
    }

    /**
     * The child's side of the store URI hand-over: the first line of its stdin.
     *
     * @throws IllegalStateException if stdin ends first
     */
    public static String readStoreUri(BufferedReader stdin) throws IOException {
        String uri = stdin.readLine();
        if (uri == null) {
            throw new IllegalStateException("stdin ended before the store URI was sent");
        }
        return uri;
    }

    private void pump(Consumer<String> listener) {
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (listener != null) {
                    listener.accept(line);
                } else {
                    lines.add(line);
                }
            }
        } catch (IOException e) {
            // the process went away; the end marker below tells the waiting side
        } finally {
            lines.add(END);
        }
    }

    /** The label given at start. */
    public String label() {
        return label;
    }

    /** The process id, for signals. */
    public long pid() {
        return process.pid();
    }

    /** Whether the process is running. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** The child's exit code; a child killed with SIGKILL has 137. */
    public int exitValue() {
        return process.exitValue();
    }

    /** Sends one line to the child's stdin; returns false if the child no longer reads it (it exited). */
    public boolean send(String line) {
        stdin.println(line);
        return !stdin.checkError();
    }

    /** Closes the child's stdin: a child that reads until the end of its input stops. */
    public void closeInput() {
        stdin.close();
    }

    /**
     * The next line of the child's stdout, waiting up to {@code timeout}; empty if none came in time, or if the
     * output has {@link #ended()}. Every line returned is kept in the {@link #transcript()}.
     */
    public Optional<String> nextLine(Duration timeout) {
        try {
            String line = lines.poll(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
            if (line == null) {
                return Optional.empty();
            }
            if (line == END) {
                ended = true;
                lines.add(END); // later calls return at once too
                return Optional.empty();
            }
            synchronized (transcript) {
                transcript.add(line);
            }
            return Optional.of(line);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + label, e);
        }
    }

    /** Whether the child closed its stdout (it exited) and {@link #nextLine} has returned every line it wrote. */
    public boolean ended() {
        return ended;
    }

    /** The lines {@link #nextLine} returned so far, for failure messages. */
    public List<String> transcript() {
        synchronized (transcript) {
            return List.copyOf(transcript);
        }
    }

    /** The last {@code count} lines the child wrote to stderr, when it goes to a log file; empty otherwise. */
    public List<String> errorTail(int count) {
        try {
            if (errorLog == null || !Files.exists(errorLog)) {
                return List.of();
            }
            List<String> all = Files.readAllLines(errorLog, StandardCharsets.UTF_8);
            return List.copyOf(all.subList(Math.max(0, all.size() - count), all.size()));
        } catch (IOException e) {
            return List.of();
        }
    }

    /** Freezes the child with SIGSTOP, as a long GC pause or a stopped VM would. */
    public void pause() {
        Signals.send(pid(), "STOP");
    }

    /** Resumes a paused child with SIGCONT. */
    public void resume() {
        Signals.send(pid(), "CONT");
    }

    /** Kills the child with SIGKILL (no release, no shutdown hook, as a crash) and waits up to 10 s for it. */
    public void kill() {
        process.destroyForcibly();
        waitFor(Duration.ofSeconds(10));
    }

    /** Kills the child with SIGKILL without waiting, also a frozen one. */
    public void killNow() {
        process.destroyForcibly();
    }

    /** Waits up to {@code timeout} for the child to exit; whether it has. */
    public boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Asks the child to stop: resumes it if paused, sends {@code quitLine} (unless null), closes its stdin, and kills
     * it if it has not exited within {@code grace}.
     */
    public void stop(String quitLine, Duration grace) {
        if (!process.isAlive()) {
            return;
        }
        try {
            resume(); // a paused child cannot act on its input
        } catch (IllegalStateException e) {
            if (process.isAlive()) {
                throw e;
            }
            return; // it exited meanwhile
        }
        if (quitLine != null) {
            send(quitLine);
        }
        stdin.close();
        if (!waitFor(grace)) {
            kill();
        }
    }

    /** {@link #stop(String, Duration)} with no quit line and 10 s of grace. */
    @Override
    public void close() {
        stop(null, Duration.ofSeconds(10));
    }

    @Override
    public String toString() {
        return "JvmProcess[" + label + ", pid " + process.pid() + "]";
    }

    /** How to start a {@link JvmProcess}. */
    public static final class Builder {

        private final String label;
        private final String mainClass;
        private final List<String> prefix = new ArrayList<>();
        private final List<String> jvmOptions = new ArrayList<>();
        private final List<String> args = new ArrayList<>();
        private String classPath;
        private String storeUri;
        private ProcessBuilder.Redirect stderr = ProcessBuilder.Redirect.DISCARD;
        private Path errorLog;
        private Consumer<String> listener;

        private Builder(String label, String mainClass) {
            this.label = Objects.requireNonNull(label, "label");
            this.mainClass = Objects.requireNonNull(mainClass, "mainClass");
        }

        /** Words put before the {@code java} command (for example {@code faketime ...}). */
        public Builder prefix(List<String> words) {
            prefix.addAll(words);
            return this;
        }

        /** JVM options ({@code -Xmx128m}, {@code -Dkey=value}). */
        public Builder jvmOptions(String... options) {
            jvmOptions.addAll(List.of(options));
            return this;
        }

        /** Arguments of the main class. Never a secret: they show in {@code ps}; see {@link #storeUri}. */
        public Builder args(String... arguments) {
            args.addAll(List.of(arguments));
            return this;
        }

        /** The class path; by default {@link JvmClassPath#current()}. */
        public Builder classPath(String path) {
            this.classPath = path;
            return this;
        }

        /** A store URI sent as the first line of the child's stdin (read with {@link #readStoreUri}). */
        public Builder storeUri(String uri) {
            this.storeUri = Objects.requireNonNull(uri, "uri");
            return this;
        }

        /** The child's stderr goes to this JVM's stderr (by default it is discarded). */
        public Builder inheritStderr() {
            this.stderr = ProcessBuilder.Redirect.INHERIT;
            this.errorLog = null;
            return this;
        }

        /** The child's stderr goes to {@code log}, whose tail {@link JvmProcess#errorTail} reads. */
        public Builder stderrTo(Path log) {
            this.stderr = ProcessBuilder.Redirect.to(log.toFile());
            this.errorLog = log;
            return this;
        }

        /**
         * Every stdout line is handed to {@code onLine} on the reader thread instead of queued for
         * {@link JvmProcess#nextLine}.
         */
        public Builder onLine(Consumer<String> onLine) {
            this.listener = onLine;
            return this;
        }

        /**
         * The full command line (no secret in it). The class path is not on it: the child gets it in its
         * {@code CLASSPATH} environment variable, because on Linux a command line over one page (4 KiB) hides the
         * child's arguments from {@link ProcessHandle.Info#arguments()}, and a test's class path is often longer.
         */
        public List<String> command() {
            List<String> command = new ArrayList<>(prefix);
            command.add(JvmClassPath.javaBinary());
            command.addAll(jvmOptions);
            command.add(mainClass);
            command.addAll(args);
            return command;
        }

        /** Starts the JVM and, if given, sends it the store URI. */
        public JvmProcess start() {
            List<String> command = command();
            ProcessBuilder builder = new ProcessBuilder(command).redirectError(stderr);
            builder.environment().put("CLASSPATH", classPath != null ? classPath : JvmClassPath.current());
            Process process;
            try {
                process = builder.start();
            } catch (IOException e) {
                throw new UncheckedIOException("could not start " + label + " (" + command.get(0) + ")", e);
            }
            JvmProcess started = new JvmProcess(label, process, errorLog, listener);
            if (storeUri != null) {
                started.send(storeUri);
            }
            return started;
        }
    }
}
