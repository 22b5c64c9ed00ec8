package io.distlock.core;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * The lines one class logs while open, formatted as {@code java.util.logging} would print them (where
 * {@link System.Logger} lands by default), so a test can check what an operator would read.
 */
final class LoggedLines implements AutoCloseable {

    private final Logger logger;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final SimpleFormatter formatter = new SimpleFormatter();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    /** Starts collecting what {@code logging}'s logger logs. */
    LoggedLines(Class<?> logging) {
        logger = Logger.getLogger(logging.getName());
        logger.addHandler(handler);
    }

    /** The messages logged so far at {@code level} or above, parameters filled in. */
    List<String> atLeast(Level level) {
        return records.stream().filter(r -> r.getLevel().intValue() >= level.intValue())
                .map(formatter::formatMessage).toList();
    }

    /** Every message logged so far, parameters filled in. */
    List<String> all() {
        return atLeast(Level.ALL);
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
