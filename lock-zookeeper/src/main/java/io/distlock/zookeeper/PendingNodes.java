package io.distlock.zookeeper;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This client's nodes that are not held and not given up either: a contender's node from its create until it is
 * granted (then {@link HeldNodes} has it) or left, and a held node while its release is on its way. With the held
 * nodes they are every node this client still has a use for, so that {@link RevivedNodes} can tell the other nodes of
 * its session after a reconnect (brought back by a server restored from an older copy) from nodes in use. A create
 * is counted from before it is sent: its node can be listed before its reply has been read.
 */
final class PendingNodes {

    private final Set<String> paths = ConcurrentHashMap.newKeySet();
    private final AtomicLong creates = new AtomicLong();
    /** The numbers of the creates sent whose node (if any) is not registered yet. */
    private final Set<Long> creating = ConcurrentHashMap.newKeySet();

    /** A create is about to be sent; pass the answer to {@link #created}. */
    long creating() {
        long number = creates.incrementAndGet();
        creating.add(number);
        return number;
    }

    /** Create {@code number} has ended: with our node at {@code path}, or with none (null: failed, or left). */
    void created(long number, String path) {
        if (path != null) {
            paths.add(path);
        }
        creating.remove(number);
    }

    /** The number of the last create begun so far. */
    long lastCreate() {
        return creates.get();
    }

    /** Whether create {@code number} has been begun and has ended (its node, if any, registered). */
    boolean ended(long number) {
        return number > 0 && number <= creates.get() && !creating.contains(number);
    }

    /** Whether every create up to number {@code last} has ended (its node, if any, registered). */
    boolean createdUpTo(long last) {
        for (long number : creating) {
            if (number <= last) {
                return false;
            }
        }
        return true;
    }

    /** Marks a node in use that is not held (a held node being released). */
    void add(String path) {
        paths.add(path);
    }

    /** The node at {@code path} is no longer pending: granted (held now), deleted, or left for its session. */
    void remove(String path) {
        paths.remove(path);
    }

    boolean contains(String path) {
        return paths.contains(path);
    }
}
