package io.distlock.cli;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;

/**
 * Formats a java.util.logging record (distlock logs through {@link System.Logger}, which the JDK backs with it) on one
 * line: time, level, logger, message, and the exception with its causes, without the stack trace, so that a warning
 * among the command's output reads as one line instead of the JDK's two (or a whole stack trace).
 */
public final class OneLineLogFormatter extends Formatter {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
            .withZone(ZoneId.systemDefault());

    @Override
    public String format(LogRecord record) {
        StringBuilder line = new StringBuilder()
                .append(TIME.format(Instant.ofEpochMilli(record.getMillis()))).append(' ')
                .append(record.getLevel().getName()).append(' ')
                .append(record.getLoggerName()).append(": ")
                .append(formatMessage(record));
        for (Throwable t = record.getThrown(); t != null; t = t.getCause() == t ? null : t.getCause()) {
            line.append(t == record.getThrown() ? " (" : "; caused by ").append(t);
        }
        if (record.getThrown() != null) {
            line.append(')');
        }
        return line.toString().replaceAll("\\R", " ") + System.lineSeparator();
    }
}
