package io.distlock.tck.check;

/**
 * One holder's stay in a critical section, as recorded by the holder: when it entered and left (monotonic
 * {@link System#nanoTime()}, comparable across processes of one Linux machine, where it reads CLOCK_MONOTONIC),
 * its fencing token, and who it was.
 *
 * @param lock the lock name
 * @param client who held it (a client or process label)
 * @param enterNanos when the holder entered, after acquire returned
 * @param exitNanos when the holder left, before release was called
 * @param token the fencing token of the lease
 */
public record CriticalSection(String lock, String client, long enterNanos, long exitNanos, long token) {

    /** Whether this section and {@code other} were inside the lock at the same time. */
    public boolean overlaps(CriticalSection other) {
        return enterNanos < other.exitNanos && other.enterNanos < exitNanos;
    }

    /** The line format used to pass sections between processes. */
    public String toLine() {
        return "SECTION " + lock.replace(' ', '\u00a0') + " " + client + " " + enterNanos + " " + exitNanos + " "
                + token;
    }

    /** Parses {@link #toLine()}. */
    public static CriticalSection parse(String line) {
        String[] f = line.split(" ");
        if (f.length != 6 || !f[0].equals("SECTION")) {
            throw new IllegalArgumentException("not a SECTION line: " + line);
        }
        return new CriticalSection(f[1].replace('\u00a0', ' '), f[2], Long.parseLong(f[3]), Long.parseLong(f[4]),
                Long.parseLong(f[5]));
    }
}
