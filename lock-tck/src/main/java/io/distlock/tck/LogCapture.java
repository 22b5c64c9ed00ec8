package io.distlock.tck;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Records what is logged while a task runs: every {@code java.util.logging} record at every level (where
 * {@link System.Logger} lands by default) and everything written to standard error (where slf4j-simple writes), so a
 * rule can check that no log line shows a secret.
 */
final class LogCapture {

    private LogCapture() {
    }

    /** Runs {@code task}, returning what it logged. */
    static String during(Runnable task) {
        return during(task, logger -> true, true);
    }

    /**
     * Runs {@code task}, returning what distlock's own loggers (those under {@code io.distlock}) logged, without
     * standard error: what the store's clients log (a JDBC driver's trace of its parameters) is theirs.
     */
    static String ofDistlockDuring(Runnable task) {
        return during(task, logger -> logger != null && logger.startsWith("io.distlock"), false);
    }

    private static String during(Runnable task, java.util.function.Predicate<String> loggers, boolean stderr) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        StringBuilder records = new StringBuilder();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (!loggers.test(r.getLoggerName())) {
                    return;
                }
                synchronized (records) {
                    records.append(r.getLoggerName()).append(": ").append(r.getMessage());
                    if (r.getParameters() != null) {
                        for (Object p : r.getParameters()) {
                            records.append(" | ").append(p);
                        }
                    }
                    for (Throwable t = r.getThrown(); t != null; t = t.getCause()) {
                        records.append(" | ").append(t);
                    }
                    records.append('\n');
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        handler.setLevel(Level.ALL);
        Logger root = Logger.getLogger("");
        Level rootLevel = root.getLevel();
        PrintStream originalErr = System.err;
        root.addHandler(handler);
        root.setLevel(Level.ALL);
        System.setErr(new PrintStream(new Tee(originalErr, err), true, StandardCharsets.UTF_8));
        try {
            task.run();
        } finally {
            System.setErr(originalErr);
            root.setLevel(rootLevel);
            root.removeHandler(handler);
        }
        synchronized (records) {
            return records + (stderr ? err.toString(StandardCharsets.UTF_8) : "");
        }
    }

    /** Writes to two streams. */
    private static final class Tee extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        Tee(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public void write(int b) throws IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            first.write(b, off, len);
            second.write(b, off, len);
        }
    }
}
