package io.distlock.chaos;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A wrong wall clock for one worker JVM through libfaketime (Debian package {@code faketime}): the process sees
 * {@code System.currentTimeMillis()} and {@code Instant.now()} shifted by hours or days, while the monotonic clock
 * ({@code System.nanoTime()}, which the histories and every local deadline use) stays true.
 */
final class WrongClock {

    private static final List<Path> LIBRARIES = List.of(
            Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"),
            Path.of("/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1"),
            Path.of("/usr/lib/faketime/libfaketime.so.1"));

    private static final List<String> OFFSETS = List.of("-1d", "-3h", "-10m", "+10m", "+3h", "+1d");

    private WrongClock() {
    }

    /** The libfaketime library, if installed. */
    static Optional<Path> library() {
        return LIBRARIES.stream().filter(Files::isReadable).findFirst();
    }

    /** The label tag of workers started with a wrong clock. */
    static final String TAG = "wrongclock";

    /** A random offset, as libfaketime writes it (e.g. {@code -3h}). */
    static String randomOffset() {
        return OFFSETS.get(ThreadLocalRandom.current().nextInt(OFFSETS.size()));
    }

    /** An {@code env} prefix that starts a command with its wall clock off by {@code offset}. */
    static List<String> prefix(String offset) {
        Path lib = library().orElseThrow(() -> new IllegalStateException("libfaketime is not installed"));
        return List.of("env", "LD_PRELOAD=" + lib, "FAKETIME=" + offset, "FAKETIME_DONT_FAKE_MONOTONIC=1");
    }

    /** A note for the report: how often workers with a wrong clock held the lock. */
    static String note(List<Event> events) {
        long held = events.stream().filter(e -> e.type().equals("ACQ_OK") && e.worker().contains(TAG)).count();
        return held + " acquisitions by workers with a wrong wall clock";
    }
}
