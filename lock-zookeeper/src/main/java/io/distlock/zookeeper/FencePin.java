package io.distlock.zookeeper;

/**
 * The pin: a PERSISTENT child of a name's parent that keeps the parent, and so its fence ({@link FenceFloor}), while
 * the parent's last token is ahead of the server clock (an operator's floor, a counter that ran ahead). A parent is
 * a CONTAINER node, which the server deletes at its container check once emptied, and a parent made again seeds its
 * tokens from the server clock: below a token granted ahead of it (defect N3 of lock-tck/DEFECTS.md). A node that is
 * never empty is never deleted by the server. The stamp that grants a token ahead of the clock makes the pin in its
 * own transaction ({@link ZooKeeperBackend#nextToken}), so no grant ahead of the clock is ever left unpinned; a later
 * stamp whose token is below the clock deletes it in its transaction, and {@link EmptiedParents} deletes pin and
 * parent together, at the parent's version, once the server clock has passed the pinned token. The pin's name holds
 * no {@link LockQueue#NODE_PREFIX}, so no listing takes it for a contender.
 */
final class FencePin {

    /** The pin's node name under a parent. */
    static final String NAME = "fence-pin";
    /** What the pin holds: nothing (its writes only read the server clock, {@link EmptiedParents}). */
    static final byte[] DATA = new byte[0];

    private FencePin() {
    }

    /** The pin's path under {@code parent}. */
    static String path(String parent) {
        return parent + '/' + NAME;
    }

    /** Whether {@code child}, a child of a parent, is the pin. */
    static boolean is(String child) {
        return NAME.equals(child);
    }

    /**
     * Whether the stamp that writes {@code next} into a parent last written at server time {@code lastWriteMillis}
     * (the read's {@code mtime}) must keep a pin: its token may be ahead of the clock. The stamp is written at that
     * time or later, so while the server clock does not step back every token ahead of the clock at its stamp is
     * pinned (a token pinned that turns out below the clock only keeps its parent a while longer); a stamp that finds
     * a pin and needs none deletes it, its token being past every pinned one and below the clock.
     */
    static boolean needed(long next, long lastWriteMillis) {
        return !FenceFloor.belowClockAfter(next, lastWriteMillis);
    }

    /**
     * Whether the server clock, read as {@code serverMillis} by a write, is past {@code token} by {@code marginMillis}
     * or more: then the pin and the parent may go, a parent made again starting above it. The margin is
     * {@link EmptiedParents#DELAY}, as for a parent without a pin (a server clock that steps back a little, or another
     * ensemble member's after a leader change).
     */
    static boolean passed(long token, long serverMillis, long marginMillis) {
        return FenceFloor.belowClockAfter(token, serverMillis - marginMillis);
    }
}
