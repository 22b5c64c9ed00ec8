package io.distlock.chaos;

/**
 * One line of a worker's history: what happened, when (monotonic nanoTime, comparable across processes of one Linux
 * machine), to which token. Types: ACQ_INVOKE, ACQ_OK, ACQ_FAIL, ACQ_UNKNOWN, READ_OK, READ_REFUSED, WRITE_OK,
 * WRITE_REFUSED, WRITE_LOST_UPDATE, REL_OK, REL_LOST, REL_UNKNOWN, LOST_SIGNAL.
 *
 * @param worker the worker's label
 * @param nanos when it happened
 * @param type what happened
 * @param token the fencing token involved, or 0
 */
public record Event(String worker, long nanos, String type, long token) {

    /** The line a worker prints. */
    public String toLine() {
        return "EV " + worker + " " + nanos + " " + type + " " + token;
    }

    /** Parses {@link #toLine()}, or returns null for other lines. */
    public static Event parse(String line) {
        String[] f = line.split(" ");
        if (f.length != 5 || !f[0].equals("EV")) {
            return null;
        }
        return new Event(f[1], Long.parseLong(f[2]), f[3], Long.parseLong(f[4]));
    }
}
