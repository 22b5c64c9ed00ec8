package io.distlock.tck.check;

/**
 * One holder's stay in a critical section, as recorded by the holder: when it entered and left (monotonic
 * {@link System#nanoTime()}, comparable across processes of one Linux machine, where it reads CLOCK_MONOTONIC),
 * its fencing token, who it was, and whether it was told that its lease was lost (a lost signal, a failed extend,
 * {@code LockLostException} at release), which makes an overlap with it one the holder could see.
 *
 * @param lock the lock name
 * @param client who held it (a client or process label)
 * @param enterNanos when the holder entered, after acquire returned
 * @param exitNanos when the holder left, before release was called
 * @param token the fencing token of the lease
 * @param told whether the holder was told its lease was lost
 */
public record CriticalSection(String lock, String client, long enterNanos, long exitNanos, long token,
        boolean told) {

    /** A section whose holder was never told its lease was lost. */
    public CriticalSection(String lock, String client, long enterNanos, long exitNanos, long token) {
        this(lock, client, enterNanos, exitNanos, token, false);
    }

    /** Whether this section and {@code other} were inside the lock at the same time. */
    public boolean overlaps(CriticalSection other) {
        return enterNanos < other.exitNanos && other.enterNanos < exitNanos;
    }

    /** The line format used to pass sections between processes. */
    public String toLine() {
        return "SECTION " + lock.replace(' ', '\u00a0') + " " + client + " " + enterNanos + " " + exitNanos + " "
                + token + (told ? " told" : "");
    }

    /** Parses {@link #toLine()}. */
    public static CriticalSection parse(String line) {
        String[] f = line.split(" ");
        if (f.length < 6 || f.length > 7 || !f[0].equals("SECTION") || f.length == 7 && !f[6].equals("told")) {
            throw new IllegalArgumentException("not a SECTION line: " + line);
        }
        return new CriticalSection(f[1].replace('\u00a0', ' '), f[2], Long.parseLong(f[3]), Long.parseLong(f[4]),
                Long.parseLong(f[5]), f.length == 7);
    }
}
