package io.distlock.chaos;

import java.util.List;

/**
 * How a redis-server of the suite keeps its data across a crash, with the server options that set it up, and
 * whether a crash must also roll its files back to simulate what an operating-system crash loses.
 */
enum RedisPersistence {

    /** Nothing on disk: a restart starts empty. */
    NONE("", List.of("--save", "", "--appendonly", "no"), false),

    /** An RDB snapshot after every second with a change; a restart loads the last snapshot. */
    RDB("RDB", List.of("--save", "1 1", "--appendonly", "no"), false),

    /**
     * Append-only file, fsync once a second. A SIGKILL alone loses nothing (the writes are in the page cache), so the
     * crash rolls the files back to a copy taken 0-1 s before the kill: what a machine crash may lose in this mode.
     */
    AOF_EVERYSEC("AOF everysec", List.of("--save", "", "--appendonly", "yes", "--appendfsync", "everysec",
            "--auto-aof-rewrite-percentage", "0"), true),

    /** Append-only file, fsync before every reply: nothing acknowledged is lost. */
    AOF_ALWAYS("AOF always", List.of("--save", "", "--appendonly", "yes", "--appendfsync", "always",
            "--auto-aof-rewrite-percentage", "0"), false);

    private final String label;
    private final List<String> serverOptions;
    private final boolean rollsBackUnsyncedWrites;

    RedisPersistence(String label, List<String> serverOptions, boolean rollsBackUnsyncedWrites) {
        this.label = label;
        this.serverOptions = serverOptions;
        this.rollsBackUnsyncedWrites = rollsBackUnsyncedWrites;
    }

    /** For the report: empty for none. */
    String label() {
        return label;
    }

    List<String> serverOptions() {
        return serverOptions;
    }

    /** Whether a crash also loses the writes of the last second (the files are rolled back to a recent copy). */
    boolean rollsBackUnsyncedWrites() {
        return rollsBackUnsyncedWrites;
    }
}
