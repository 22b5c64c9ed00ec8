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

    /** An {@code env} prefix that starts a command with its wall clock off by a random offset. */
    static List<String> randomPrefix() {
        Path lib = library().orElseThrow(() -> new IllegalStateException("libfaketime is not installed"));
        String offset = OFFSETS.get(ThreadLocalRandom.current().nextInt(OFFSETS.size()));
        return List.of("env", "LD_PRELOAD=" + lib, "FAKETIME=" + offset, "FAKETIME_DONT_FAKE_MONOTONIC=1");
    }
}
