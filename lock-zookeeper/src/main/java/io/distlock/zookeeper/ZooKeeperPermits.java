package io.distlock.zookeeper;

import io.distlock.StoreUnavailableException;
import io.distlock.spi.Grant;
import io.distlock.spi.PermitBackend;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher.WatcherType;

/**
 * Semaphores on ZooKeeper, without an internal mutex: a contender creates an ephemeral-sequential node under the
 * semaphore's CONTAINER parent ({@code /distlock-semaphores/NAME}, apart from the locks' {@code /distlock}); the
 * lowest {@code permits} nodes hold. The limit is part of every node's name ({@code -p<permits>-lock-<seq>}), so
 * a contender sees the limit of everyone queued in the same listing and refuses a different one.
 *
 * <p>No herd: a node's standing changes only when a node ahead of it goes, and only the first waiter (position
 * {@code permits}) can then become a holder, so the first waiter watches the holders' nodes (all watches sent at
 * once) and every other waiter only its predecessor. A node that comes to hold writes a mark into its own node in
 * the transaction that stamps its fencing token into the parent ({@link ZooKeeperBackend#nextToken}, as for locks),
 * which wakes its successor, now the first waiter; a successor that finds the mark already there when setting its
 * watch re-checks at once. So a free permit costs its create, the listing behind it, the fence's read, the stamp
 * and its delete.
 */
final class ZooKeeperPermits {

    /** The highest limit a ZooKeeper semaphore takes (the first waiter watches that many nodes). */
    static final int MAX_PERMITS = 1000;
    /** Where semaphore parents live, under the store's chroot. */
    static final String ROOT = "/distlock-semaphores";
    private static final byte[] HOLDING = "holding".getBytes(StandardCharsets.UTF_8);
    private static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final ZooKeeperBackend backend;

    ZooKeeperPermits(ZooKeeperBackend backend) {
        this.backend = backend;
    }

    static String parentPath(String name) {
        return ROOT + "/" + NodeNames.encode(name);
    }

    private static String nodePrefix(int permits) {
        return "p" + permits + "-" + LockQueue.NODE_PREFIX;
    }

    /**
     * The limit in a contender's node name ({@code <store id>-<create>-p<limit>-lock-<sequence>}; earlier versions
     * of this store put Curator's protected prefix {@code _c_<uuid>-} before {@code p<limit>}), or 0 if it has none.
     */
    static int limitOf(String child) {
        int lock = child.lastIndexOf("-" + LockQueue.NODE_PREFIX);
        if (lock < 1) {
            return 0;
        }
        int p = child.lastIndexOf("-p", lock - 1);
        int digits = p >= 0 ? p + 2 : child.charAt(0) == 'p' ? 1 : -1;
        if (digits < 0 || digits >= lock) {
            return 0;
        }
        try {
            return Integer.parseInt(child.substring(digits, lock));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static void checkLimits(String name, List<String> children, String ours, int permits) {
        for (String child : children) {
            int limit = limitOf(child);
            if (limit > 0 && limit != permits && !child.equals(ours)) {
                throw new IllegalStateException(PermitBackend.limitMismatch(name, limit, permits));
            }
        }
    }

    /**
     * Takes a permit of {@code name} within {@code budget}. A single attempt queues like any other and leaves again if
     * it does not hold at once: its create goes through the leader, so the listing sent behind it reads past every
     * release made before the attempt (no sync, no listing first).
     */
    Grant contend(String name, int permits, WaitBudget budget) throws InterruptedException {
        String parent = parentPath(name);
        Wakeup wakeup = null; // made when we first wait: a permit that is free at once needs none
        Set<String> watched = null;
        LockNode ours = null;
        long epoch = 0;
        try {
            while (true) {
                ZooKeeperBackend.Created created = null;
                if (ours == null) {
                    epoch = backend.held.epoch();
                    created = backend.create(name, parent, nodePrefix(permits), budget);
                    ours = created.node();
                }
                List<String> children = created != null
                        ? backend.childrenAfter(ours, created.listing(), parent, budget)
                        : backend.children(parent, budget);
                String ourName = ZooKeeperBackend.nodeName(ours.path());
                checkLimits(name, children, ourName, permits);
                LockQueue queue = LockQueue.of(children);
                int position = queue.position(ourName);
                boolean current = ours.sessionId() == backend.currentSession();
                long token = 0;
                if (position >= 0 && position < permits && current) {
                    token = backend.nextToken("semaphore", name, parent, ours, HOLDING,
                            created != null ? created.listing() : null, queue.pinned(), budget);
                    if (token == 0) {
                        position = -1; // the parent went, and our node with it
                    }
                }
                if (position >= 0 && position < permits && current) {
                    Grant grant = new Grant(name, ZooKeeperBackend.ownerToken(ours), token, ours);
                    if (backend.held.add(ours, grant, epoch, backend.currentSession())) {
                        backend.pending.remove(ours.path()); // after it was added to the held nodes
                        ours = null; // handed over to the grant
                        return grant;
                    }
                    current = false; // the session ended while we granted: its losses are already reported
                }
                if (position < 0 || !current) {
                    if (position >= 0) {
                        backend.deleteInBackground(ours.path());
                    }
                    backend.pending.remove(ours.path());
                    ours = null;
                    if (budget.expired()) {
                        return null;
                    }
                    continue;
                }
                if (budget.expired()) {
                    return null;
                }
                if (wakeup == null) {
                    wakeup = new Wakeup();
                    watched = new HashSet<>();
                    backend.waiting.add(wakeup); // before the first watch: wake-ups before it would be reset anyway
                }
                wakeup.reset();
                List<String> ahead = new ArrayList<>();
                if (position == permits) {
                    for (int i = 1; i <= permits; i++) {
                        ahead.add(queue.predecessorOf(i)); // every holder: any of them going lets us in
                    }
                } else {
                    ahead.add(queue.predecessorOf(position));
                }
                if (watchAll(parent, ahead, position > permits, wakeup, watched, budget)) {
                    wakeup.await(budget.waitNanos(RECHECK_NANOS));
                }
                backend.ensureOpen();
                if (budget.expired()) {
                    return null;
                }
            }
        } finally {
            if (wakeup != null) {
                backend.waiting.remove(wakeup);
                wakeup.stopWatching();
                for (String path : watched) {
                    backend.removeWatch(path, wakeup, WatcherType.Any); // a path may have had either kind (watchAll)
                }
            }
            if (ours != null) {
                backend.deleteLeftover(ours.path(), budget);
                backend.pending.remove(ours.path());
            }
        }
    }

    /**
     * Watches the nodes {@code ahead}, every watch sent before any reply is awaited (one round trip for all the
     * holders a first waiter watches); false if one is already gone, or (for a waiter's predecessor) already holds,
     * so the caller re-checks at once. Every watch that was set is in {@code watched}, for the caller to remove.
     *
     * <p>A waiter's predecessor is watched with a data watch, since the mark it writes when it comes to hold is what
     * tells us we became the first waiter; the holders a first waiter watches are watched until they go
     * ({@link ZooKeeperBackend#watchUntilGone}), since only a holder's going lets us in, and a data watch on a holder
     * that has not stamped yet would wake us for nothing at its stamp.
     */
    private boolean watchAll(String parent, List<String> ahead, boolean predecessorMayHold, Wakeup wakeup,
            Set<String> watched, WaitBudget budget) throws InterruptedException {
        int count = ahead.size();
        String[] paths = new String[count];
        BoundedCall[] calls = new BoundedCall[count];
        int started = 0;
        int awaited = 0;
        try {
            for (; started < count; started++) {
                String path = ZKPaths.makePath(parent, ahead.get(started));
                paths[started] = path;
                WatcherType type = predecessorMayHold ? WatcherType.Data : WatcherType.Children;
                calls[started] = new BoundedCall(late -> {
                    if (late.getResultCode() == KeeperException.Code.OK.intValue()) {
                        backend.removeWatch(path, wakeup, type); // set after we stopped waiting for it
                    }
                });
                backend.start("watching " + path, calls[started], predecessorMayHold
                        ? callback -> backend.client.getData().usingWatcher(wakeup).inBackground(callback).forPath(path)
                        : callback -> backend.watchUntilGone(path, wakeup, callback));
            }
            boolean allSet = true;
            while (awaited < count) {
                int i = awaited++;
                String what = "watching " + paths[i];
                CuratorEvent event = backend.await(budget, what, calls[i]);
                if (event.getResultCode() == KeeperException.Code.NONODE.intValue()) {
                    allSet = false; // no watch is left on a node that does not exist
                    continue;
                }
                backend.check(event, what);
                watched.add(paths[i]);
                if (backend.lostCreate(paths[i], event.getStat())) {
                    backend.deleteLostCreate(paths[i]); // ahead of ours, made by a create of ours whose reply was lost
                    allSet = false;
                    continue;
                }
                if (predecessorMayHold && Arrays.equals(event.getData(), HOLDING)) {
                    allSet = false;
                }
            }
            return allSet;
        } finally {
            for (int i = awaited; i < started; i++) {
                backend.abandon(calls[i]); // its watch, if set, is removed when its reply comes
            }
        }
    }

    /** How many nodes hold now (after catching up with the leader): the lowest ones, up to the limit they state. */
    int held(String name, WaitBudget budget) {
        try {
            backend.sync(parentPath(name), budget); // the next read sees every release made before this call
            List<String> children = backend.children(parentPath(name), budget);
            LockQueue queue = LockQueue.of(children);
            if (queue.isEmpty()) {
                return 0;
            }
            int limit = limitOf(queue.holder());
            return limit > 0 ? Math.min(limit, queue.size()) : queue.size();
        } catch (InterruptedException e) {
            throw new AssertionError("an uninterruptible wait was interrupted", e);
        }
    }
}
