package io.distlock.zookeeper;

import io.distlock.Arguments;
import io.distlock.LockException;
import java.nio.charset.StandardCharsets;

/**
 * The arithmetic of a name's fencing tokens, kept in the data of the name's parent node. The parent's state stands
 * for the last token granted: the number in its data or the server time of its last write in microseconds, whichever
 * is larger. A grant writes {@code last + 1} with a versioned {@code setData} and is granted that or the server time
 * of its own write in microseconds, whichever is larger, which is again what the parent's state stands for; so tokens
 * grow by one per grant while the server keeps its data, and after it lost some (a data directory restored from an
 * older copy, a server that lost its last transactions, a parent deleted by an operator) the server clock puts the
 * next token past every token granted before, as the Redis and SQL stores re-seed from their server clocks.
 */
final class FenceFloor {

    private static final long MICROS_PER_MILLI = 1000;

    private FenceFloor() {
    }

    /**
     * The last token the parent's state stands for: the number in {@code data} (none if it holds no positive 64-bit
     * integer, as an operator may have written) or {@code mtimeMillis} in microseconds, whichever is larger.
     */
    static long last(byte[] data, long mtimeMillis) {
        return Math.max(written(data), micros(mtimeMillis));
    }

    /**
     * The token to write after {@code last}.
     *
     * @throws LockException naming the name if no 64-bit token follows it (an operator's value)
     */
    static long next(String what, String name, long last) {
        if (last == Long.MAX_VALUE) {
            throw new LockException("the fence of " + what + " " + Arguments.quoted(name)
                    + " is exhausted: its parent node holds "
                    + "the largest 64-bit token, so no larger one can be granted; nothing was granted");
        }
        return last + 1;
    }

    /** The token a grant that wrote {@code next} at server time {@code writtenMillis} holds. */
    static long granted(long next, long writtenMillis) {
        return Math.max(next, micros(writtenMillis));
    }

    /**
     * Whether {@code token}, granted by a stamp the server wrote at {@code writtenMillis}, is below the server clock
     * from the next millisecond on: true of every token the clock seeded, and of a counter that went on from one by
     * fewer than 1,000 grants in a millisecond; false of a floor an operator moved ahead of the clock. Only a parent
     * whose last token is below the clock may be deleted by a client ({@link EmptiedParents}), and only after that
     * millisecond: a parent made again seeds its first token from its creation time, so it starts above every token
     * its predecessor granted (a deletion within the millisecond of the last stamp could repeat a token, defect Z6 of
     * lock-tck/DEFECTS.md).
     */
    static boolean belowClockAfter(long token, long writtenMillis) {
        return writtenMillis > 0 && writtenMillis < Long.MAX_VALUE / MICROS_PER_MILLI
                && token < micros(writtenMillis + 1);
    }

    /** {@code token} as the parent's data: decimal digits, as an operator reads them. */
    static byte[] encode(long token) {
        return Long.toString(token).getBytes(StandardCharsets.US_ASCII);
    }

    private static long micros(long millis) {
        return millis <= 0 ? 0 : millis > Long.MAX_VALUE / MICROS_PER_MILLI ? Long.MAX_VALUE
                : millis * MICROS_PER_MILLI;
    }

    private static long written(byte[] data) {
        if (data == null || data.length == 0 || data.length > 19) {
            return 0;
        }
        long value = 0;
        for (byte b : data) {
            if (b < '0' || b > '9') {
                return 0;
            }
            int digit = b - '0';
            if (value > (Long.MAX_VALUE - digit) / 10) {
                return 0;
            }
            value = value * 10 + digit;
        }
        return value;
    }
}
