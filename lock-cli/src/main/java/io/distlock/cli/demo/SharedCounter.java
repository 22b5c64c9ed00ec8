package io.distlock.cli.demo;

import java.nio.file.Path;

/**
 * A shared number (a member's points, a product's stock) in a file, as a database row would hold it: reading it and
 * subtracting from it are two separate steps, each atomic on its own, like {@code SELECT} and
 * {@code UPDATE ... SET n = n - ?}. A service that checks "enough left?" and then subtracts races with another
 * doing the same unless a lock spans both steps.
 */
public final class SharedCounter {

    private final LockedFile file;

    /** The counter stored at {@code path}. */
    public SharedCounter(Path path) {
        this.file = new LockedFile(path);
    }

    /** Sets the value. */
    public void set(long value) {
        file.write(Long.toString(value));
    }

    /** The current value. */
    public long get() {
        return Long.parseLong(file.read().strip());
    }

    /** Subtracts {@code amount} atomically and returns the new value (which may go negative: no check here). */
    public long subtract(long amount) {
        return Long.parseLong(file.update(old -> Long.toString(Long.parseLong(old.strip()) - amount)).strip());
    }
}
