package io.distlock.cli.demo;

import java.nio.file.Path;

/**
 * A shared record that remembers the highest fencing token it has accepted and refuses writes carrying a lower one
 * (Kleppmann's fencing): the resource side of distlock's {@code Lease.fencingToken()}. With checking turned off it
 * is an ordinary last-write-wins record, to show what happens without fencing.
 */
public final class FencedRecord {

    /** The outcome of a write. */
    public record WriteResult(boolean accepted, long highestToken) {
        @Override
        public String toString() {
            return accepted ? "accepted" : "REFUSED (its token < " + highestToken + ")";
        }
    }

    private final LockedFile file;
    private final boolean checkTokens;

    /** A record at {@code path}; {@code checkTokens} false makes it last-write-wins. */
    public FencedRecord(Path path, boolean checkTokens) {
        this.file = new LockedFile(path);
        this.checkTokens = checkTokens;
    }

    /** Empties the record. */
    public void clear() {
        file.write("0\n");
    }

    /** Writes {@code value} unless fencing is on and {@code token} is lower than the highest accepted so far. */
    public WriteResult write(long token, String value) {
        boolean[] accepted = new boolean[1];
        long[] highest = new long[1];
        file.update(old -> {
            long seen = highestToken(old);
            if (checkTokens && token < seen) {
                highest[0] = seen;
                return old;
            }
            accepted[0] = true;
            highest[0] = Math.max(seen, token);
            return highest[0] + "\n" + value.replace('\n', ' ');
        });
        return new WriteResult(accepted[0], highest[0]);
    }

    /** The value last accepted, or empty. */
    public String value() {
        String content = file.read();
        int nl = content.indexOf('\n');
        return nl < 0 ? "" : content.substring(nl + 1);
    }

    private static long highestToken(String content) {
        String first = content.lines().findFirst().orElse("0").strip();
        return first.isEmpty() ? 0 : Long.parseLong(first);
    }
}
