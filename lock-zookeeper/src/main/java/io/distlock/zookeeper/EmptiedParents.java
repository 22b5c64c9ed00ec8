package io.distlock.zookeeper;

import io.distlock.spi.Grant;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * Deletes the parent node of a name this store released, {@link #DELAY} after its last release, so that names used
 * once (one lock per order) leave nothing behind within seconds: the server deletes an emptied CONTAINER parent
 * only at its container check (every minute by default, and at most {@code znode.container.maxPerMinute} of them a
 * minute), far behind a steady stream of new names. The delete is sent in the background, at the data version our
 * grant's stamp left the parent at, so it is refused, harmlessly, if the parent is not empty (NOTEMPTY: others
 * queued or hold), was stamped again since (BADVERSION: another grant, or an operator's write) or is gone (NONODE).
 *
 * <p>Tokens never repeat: a parent made again seeds its first token from its creation time ({@link FenceFloor}), so
 * it starts above every token of the parent deleted before it if that parent's last token is below the server clock
 * at the deletion. The version makes the last token the one our grant got, which {@link FenceFloor#belowClockAfter}
 * checked at the grant: below the clock from the millisecond after the stamp on. A parent our grant left pinned
 * ({@link FencePin}: its token may be ahead of the clock, an operator's floor) goes only with its pin, in one
 * transaction at the parent's version, once a write of the pin (its server time) shows the clock past our token by
 * the delay and the pin's creation no later than our stamp (a pin that survived since the stamp proves the parent is
 * the one we stamped, not one made again up to the same version); until then its check is put off to when the clock
 * will have passed it, for at most {@link #MAX_PIN_WAIT} (further ahead, the pin stays for the name's next grant
 * after the clock passed it, whose release deletes it, or whose stamp does). The delay puts the deletion seconds, not
 * one millisecond, past the stamp, so a server clock that steps back a little, or another ensemble member's clock
 * after a leader change, still reads later than the stamp. The version cannot tell our parent from one the server
 * deleted and someone made and stamped again to the same version within the delay; deleting that one is no worse
 * than the server's own deletion at an arbitrary moment (defect Z6 of lock-tck/DEFECTS.md, open, not widened).
 *
 * <p>Bounded: one entry per released name (a name released again moves its delay on, and keeps the newest version
 * this store stamped), dropped once its delete is sent; at most {@link #MAX_PENDING} names, past which a released
 * name is left to the server. Closing the store drops the pending ones (the server's container check takes them).
 * No request is sent on the acquire or release path, and none while a name keeps being taken again within the delay.
 */
final class EmptiedParents {

    /**
     * How long after a name's last release its parent is deleted: far more than the millisecond the clock must move
     * past the last stamp (see above), long enough that a name taken again soon keeps its parent (no parent made
     * again, no refused delete), short beside the server's minute.
     */
    static final Duration DELAY = Duration.ofSeconds(2);
    /** How many released names wait at most; about 100 B each. */
    static final int MAX_PENDING = 100_000;
    /** How often due parents are looked for. */
    static final long TICK_MS = 250;
    /**
     * How far ahead of the server clock a pinned parent's token may be for this store to wait for the clock and delete
     * the pin and the parent; a token further ahead leaves its pin (one node) to the name's next grant.
     */
    static final Duration MAX_PIN_WAIT = Duration.ofDays(1);

    private static final System.Logger LOG = System.getLogger(EmptiedParents.class.getName());
    private static final String PERMITS_PREFIX = ZooKeeperPermits.ROOT + "/";

    private final CuratorFramework client;
    private final HeldNodes paths;
    private final long delayNanos = DELAY.toNanos();
    private final int maxPending;
    /** Released lock names: the parent version to delete at and when. */
    private final Map<String, Due> locks = new ConcurrentHashMap<>();
    /** Released semaphore names, the same way. */
    private final Map<String, Due> semaphores = new ConcurrentHashMap<>();
    private final ScheduledThreadPoolExecutor timer;
    private volatile boolean closed;

    /**
     * When a parent is due to be deleted, at which data version, and, if our stamp left it pinned ({@link FencePin}),
     * the token the server clock must have passed first and the stamp's zxid (0 and 0: no pin).
     */
    private record Due(int version, long atNanos, long pinnedToken, long pinnedBy) {
    }

    /**
     * @param client the store's client, whose session sends the deletes
     * @param paths the store's held nodes, for the chroot of the plain ZooKeeper handle's paths
     */
    EmptiedParents(CuratorFramework client, HeldNodes paths, String storeName) {
        this(client, paths, storeName, MAX_PENDING);
    }

    /** As the store makes it, with at most {@code maxPending} names waiting (tests). */
    EmptiedParents(CuratorFramework client, HeldNodes paths, String storeName, int maxPending) {
        this.client = client;
        this.paths = paths;
        this.maxPending = maxPending;
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "distlock-zookeeper-parents-" + storeName);
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::deleteDue, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * Records that {@code grant} was released: its parent is deleted {@link #DELAY} from now if nobody stamped it
     * since and it is empty then (with its pin, once the server clock has passed the grant's token, if the stamp left
     * it pinned). If its token was ahead of the clock without a pin, the name's parent is left to the server, also by
     * an earlier release of the name still waiting.
     */
    void released(Grant grant) {
        LockNode node = (LockNode) grant.handle();
        Map<String, Due> pending = node.path().startsWith(PERMITS_PREFIX) ? semaphores : locks;
        int version = node.parentVersion();
        if (version == LockNode.KEEP_PARENT) {
            pending.remove(grant.name()); // ahead of the clock now: an earlier release's version must not delete it
            return;
        }
        schedule(pending, grant.name(), new Due(version, System.nanoTime() + delayNanos,
                node.pinned() ? grant.fencingToken() : 0, node.pinnedBy()));
    }

    /** Puts {@code due} in for {@code name}, unless closed or full (a new name is then the server's). */
    private void schedule(Map<String, Due> pending, String name, Due due) {
        if (closed) {
            return;
        }
        if (pending() < maxPending) {
            pending.merge(name, due, EmptiedParents::later);
        } else {
            pending.computeIfPresent(name, (n, before) -> later(before, due));
        }
    }

    /**
     * The later delay, with the newer stamp of the two (its version, and its pin): both are our stamps, and only the
     * newer can still be the parent's (two permits of one name released out of their stamps' order).
     */
    private static Due later(Due before, Due now) {
        long at = now.atNanos() - before.atNanos() > 0 ? now.atNanos() : before.atNanos(); // nanoTime may wrap
        Due newer = now.version() >= before.version() ? now : before;
        return new Due(newer.version(), at, newer.pinnedToken(), newer.pinnedBy());
    }

    /**
     * Whether lock (or semaphore) {@code name} waits for its parent's delete: this store released it within the last
     * {@link #DELAY} and has not deleted its parent since, so the parent is most likely there.
     */
    boolean waitsFor(String name, boolean semaphore) {
        return (semaphore ? semaphores : locks).containsKey(name);
    }

    /** How many names wait for their parent's delete. */
    long pending() {
        return locks.size() + (long) semaphores.size();
    }

    private void deleteDue() {
        if (closed) {
            return;
        }
        ZooKeeper zk;
        try {
            zk = client.getZookeeperClient().getZooKeeper();
        } catch (Exception e) {
            LOG.log(Level.DEBUG, "no ZooKeeper handle to delete released names' parents with; trying at the next tick",
                    e);
            return;
        }
        long now = System.nanoTime();
        deleteDue(zk, locks, ZooKeeperBackend::parentPath, now);
        deleteDue(zk, semaphores, ZooKeeperPermits::parentPath, now);
    }

    private void deleteDue(ZooKeeper zk, Map<String, Due> pending, UnaryOperator<String> parentOf, long now) {
        for (Map.Entry<String, Due> entry : pending.entrySet()) {
            Due due = entry.getValue();
            if (now - due.atNanos() < 0 || !pending.remove(entry.getKey(), due)) {
                continue; // not due yet, or released again since: its new entry is
            }
            String parent = paths.fullPath(parentOf.apply(entry.getKey()));
            try {
                if (due.pinnedToken() == 0) {
                    zk.delete(parent, due.version(), EmptiedParents::deleted, null);
                } else {
                    zk.setData(FencePin.path(parent), FencePin.DATA, -1, this::touched,
                            new Touch(zk, pending, entry.getKey(), due, parent));
                }
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "could not send the delete of " + parent + "; the server's container check "
                        + "deletes it once empty (and its pin, if any, stays for the name's next grant)", e);
            }
        }
    }

    /** A write of a pin, sent to read the server clock before the pin and its parent are deleted. */
    private record Touch(ZooKeeper zk, Map<String, Due> pending, String name, Due due, String parent) {
    }

    /**
     * The answer to a write of a pin: the server time of the write says whether the clock has passed the pinned token
     * (then the pin and the parent are deleted in one transaction, the parent at our stamp's version) or when it will
     * (then the check is put off to then, at most {@link #MAX_PIN_WAIT}). A pin that is gone was deleted with a newer
     * stamp, which took the parent over; a pin made after our stamp is another parent's (ours was deleted, by an
     * operator or with a later stamp's pin, and the name's parent made again, maybe up to our version and pinned with
     * a floor further ahead): both are left alone, as is a pin any other failure leaves, for the name's next grant.
     */
    private void touched(int rc, String pinPath, Object ctx, Stat stat) {
        Touch touch = (Touch) ctx;
        KeeperException.Code code = KeeperException.Code.get(rc);
        if (code != KeeperException.Code.OK) {
            if (code != KeeperException.Code.NONODE) {
                LOG.log(Level.DEBUG, "the write of the pin " + pinPath + " failed with " + code + "; the pin stays "
                        + "for the name's next grant");
            }
            return;
        }
        if (stat.getCzxid() > touch.due().pinnedBy()) {
            LOG.log(Level.DEBUG, "the pin " + pinPath + " was made after our stamp: its parent is not the one we "
                    + "stamped, and stays");
            return;
        }
        long margin = DELAY.toMillis();
        long token = touch.due().pinnedToken();
        if (FencePin.passed(token, stat.getMtime(), margin)) {
            try {
                touch.zk().multi(List.of(Op.delete(pinPath, stat.getVersion()),
                        Op.delete(touch.parent(), touch.due().version())), this::unpinned, touch);
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "could not send the delete of the pin " + pinPath + "; it stays for the name's "
                        + "next grant", e);
            }
            return;
        }
        long waitMillis = token / 1000 + margin - stat.getMtime() + 1; // then the clock has passed it
        if (waitMillis > MAX_PIN_WAIT.toMillis()) {
            LOG.log(Level.DEBUG, "the pin " + pinPath + " holds a token more than " + MAX_PIN_WAIT + " ahead of the "
                    + "server clock; it stays for the name's next grant");
            return;
        }
        schedule(touch.pending(), touch.name(), new Due(touch.due().version(),
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis), token, touch.due().pinnedBy()));
    }

    /**
     * The answer to the deletion of a pin and its parent. A pin written since our write of it (another store's write,
     * to read the clock for an earlier grant of the name) is written and checked again at the next tick: that store
     * finds its stamp is not the last and lets go, so the two do not leave the pin to each other. Anything else but OK
     * leaves both to the name's next grant.
     */
    private void unpinned(int rc, String path, Object ctx, List<OpResult> results) {
        KeeperException.Code code = KeeperException.Code.get(rc);
        if (code == KeeperException.Code.BADVERSION && results != null && !results.isEmpty()
                && results.get(0) instanceof OpResult.ErrorResult pin
                && pin.getErr() == KeeperException.Code.BADVERSION.intValue()) {
            Touch touch = (Touch) ctx;
            Due due = touch.due();
            schedule(touch.pending(), touch.name(), new Due(due.version(), System.nanoTime(), due.pinnedToken(),
                    due.pinnedBy()));
            return;
        }
        if (code != KeeperException.Code.OK && code != KeeperException.Code.NOTEMPTY
                && code != KeeperException.Code.BADVERSION && code != KeeperException.Code.NONODE) {
            LOG.log(Level.DEBUG, "the delete of a pinned parent failed with " + code + "; the pin stays for the "
                    + "name's next grant");
        }
    }

    /** The answer to a delete: anything but OK leaves the parent to its holders and to the server. */
    private static void deleted(int rc, String path, Object ctx) {
        KeeperException.Code code = KeeperException.Code.get(rc);
        if (code != KeeperException.Code.OK && code != KeeperException.Code.NOTEMPTY
                && code != KeeperException.Code.BADVERSION && code != KeeperException.Code.NONODE) {
            LOG.log(Level.DEBUG, "the delete of the emptied parent " + path + " failed with " + code
                    + "; the server's container check deletes it once empty");
        }
    }

    /** Drops the pending deletes (the server's container check takes those parents) and stops the timer. */
    void close() {
        closed = true;
        timer.shutdownNow();
        locks.clear();
        semaphores.clear();
    }
}
