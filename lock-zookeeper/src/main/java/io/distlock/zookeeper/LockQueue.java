package io.distlock.zookeeper;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The contenders of one lock, in the order ZooKeeper queued them. A contender's node is named
 * {@code <store id>-<create>-lock-<sequence>} (the creating store's random id and the number of its create, our
 * prefix, then the parent's sequence counter; earlier versions of this store put Curator's protected prefix
 * {@code _c_<uuid>-} before {@code lock-}, and such names are read the same way); the lowest sequence holds the lock
 * and every other contender waits for the one just before it. A parent's pin ({@link FencePin}) is no contender; the
 * queue only notes whether it was listed.
 */
final class LockQueue {

    /** Our part of every contender's node name, before the sequence. */
    static final String NODE_PREFIX = "lock-";

    /** Contender node names by sequence: one comparator for every queue, not one made per listing. */
    private static final Comparator<String> BY_SEQUENCE = Comparator.comparingLong(LockQueue::sequence);

    private final List<String> ordered;
    private final boolean pinned;

    private LockQueue(List<String> ordered, boolean pinned) {
        this.ordered = ordered;
        this.pinned = pinned;
    }

    /** The queue of {@code children} (node names of one lock parent); the pin and foreign nodes are ignored. */
    static LockQueue of(List<String> children) {
        List<String> contenders = new ArrayList<>(children.size());
        boolean pinned = false;
        for (String child : children) {
            if (sequence(child) != Long.MIN_VALUE) {
                contenders.add(child);
            } else if (FencePin.is(child)) {
                pinned = true;
            }
        }
        if (contenders.size() > 1) {
            contenders.sort(BY_SEQUENCE); // an uncontended lock lists one node: nothing to sort
        }
        return new LockQueue(contenders, pinned);
    }

    /** The sequence number of contender node {@code child}, or Long.MIN_VALUE if it is not a contender's. */
    static long sequence(String child) {
        int at = child.lastIndexOf(NODE_PREFIX);
        if (at < 0 || at + NODE_PREFIX.length() >= child.length()) {
            return Long.MIN_VALUE;
        }
        try {
            return Long.parseLong(child, at + NODE_PREFIX.length(), child.length(), 10); // no substring
        } catch (NumberFormatException e) {
            return Long.MIN_VALUE;
        }
    }

    /** Whether the listing showed the parent's pin ({@link FencePin}). */
    boolean pinned() {
        return pinned;
    }

    boolean isEmpty() {
        return ordered.isEmpty();
    }

    int size() {
        return ordered.size();
    }

    /** The holder's node name, or null if no one holds the lock. */
    String holder() {
        return ordered.isEmpty() ? null : ordered.get(0);
    }

    /** Where {@code node} stands: 0 holds the lock, -1 not queued. */
    int position(String node) {
        return ordered.indexOf(node);
    }

    /** The node just before position {@code position}. */
    String predecessorOf(int position) {
        return ordered.get(position - 1);
    }
}
