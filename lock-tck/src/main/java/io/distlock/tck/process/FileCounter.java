package io.distlock.tck.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * A counter in a file shared by several processes, incremented by read, pause, write: with a broken lock, two
 * processes lose an update. The pause only widens the race; it synchronises nothing.
 */
public final class FileCounter {

    private final Path file;

    /** A counter in {@code file}; a missing file reads as zero. */
    public FileCounter(Path file) {
        this.file = file;
    }

    /** The current value. */
    public long read() {
        try {
            if (!Files.exists(file)) {
                return 0;
            }
            String text = Files.readString(file, StandardCharsets.UTF_8).strip();
            return text.isEmpty() ? 0 : Long.parseLong(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads, pauses, writes the value plus one. */
    public void slowIncrement(Duration pause) {
        long value = read();
        if (!pause.isZero()) {
            LockSupport.parkNanos(pause.toNanos());
        }
        try {
            Files.writeString(file, Long.toString(value + 1), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
