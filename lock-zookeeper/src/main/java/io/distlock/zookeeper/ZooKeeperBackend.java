package io.distlock.zookeeper;

import io.distlock.Arguments;
import io.distlock.LockAdmin;
import io.distlock.LockException;
import io.distlock.StoreUnavailableException;
import io.distlock.spi.Grant;
import io.distlock.spi.InterruptFlag;
import io.distlock.spi.LeaseEvents;
import io.distlock.spi.LockBackend;
import io.distlock.spi.OwnerTokens;
import io.distlock.spi.PermitBackend;
import io.distlock.spi.Renewal;
import io.distlock.spi.Terms;
import io.distlock.spi.Wait;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CreateBuilder;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.CuratorEventType;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.Watcher.WatcherType;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * The ZooKeeper store's operations. A contender creates an EPHEMERAL_SEQUENTIAL node under the lock's
 * CONTAINER parent; the lowest sequence holds the lock; every other contender watches only the node just before its
 * own (no herd effect) and re-checks when it goes, or every {@link #RECHECK_NANOS} as a safety net. The fencing token
 * is stamped into the parent's data when our node comes first ({@link #nextToken}, {@link FenceFloor}): one more than
 * the last, or the server clock in microseconds if that is larger, so it keeps growing when the server deletes an
 * empty parent and also after the server's data was restored from an older copy, whose zxids (a node's czxid) repeat
 * ones given before. Leases live as long as the session: see {@link SessionListener}.
 *
 * <p>Every store operation is a Curator background operation waited for within a {@link WaitBudget}, so an acquire
 * returns within its limit plus one operation timeout also while the server is gone; what it leaves behind (a node,
 * a watch) is removed in the background. A node is granted only if it belongs to the current session.
 *
 * <p>The create is not Curator's protected one (Z8 of lock-tck/DEFECTS.md): once a protected create's retries are
 * spent, Curator hands it to a background clean-up that runs itself again on the same stack while the client is not
 * connected (CURATOR-106), a {@code StackOverflowError} and a storm of logged errors on the thread that also delivers
 * our watches and replies. What protection was for, we do ourselves: a create whose reply the dropped connection lost
 * made a node of our live session that we neither hold nor use, and Curator's retry of the create makes the one we
 * use behind it. The contender behind it deletes it when it reads it as its predecessor ({@link #lostCreate}: the
 * read that sets the watch returns the node's owner, so this costs no request), and the sweep after the reconnect
 * that came with the loss deletes any such node nobody waits behind ({@link RevivedNodes}). Both are one delete, from
 * our own threads, never a retry loop of Curator's.
 */
final class ZooKeeperBackend implements LockBackend, PermitBackend {

    /** Where lock parents live, under the store's chroot. */
    static final String ROOT = "/distlock";

    private static final System.Logger LOG = System.getLogger(ZooKeeperBackend.class.getName());
    private static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** What a create does, for messages: followed by the parent's path. */
    private static final String CREATING = "creating a node under ";
    /** What a release's delete does, for messages: followed by the lock's name. */
    private static final String RELEASING = "releasing (its delete goes on in the background past a timeout) ";
    /**
     * What {@link #deletePlain} answers for a delete it could not send: not a ZooKeeper result code, and unlike a
     * CONNECTIONLOSS (sent, maybe applied, its answer lost or late) it means nothing of ours went out, so a "no node"
     * answer to the delete sent after it is not our own doing.
     */
    private static final int NOT_SENT = Integer.MIN_VALUE;
    /** What a parent created on the plain handle holds: nothing, as one Curator makes ({@link FenceFloor}). */
    private static final byte[] NO_DATA = new byte[0];
    /** The answer to {@link #createParent}: the create of our node behind it answers for both; logged only. */
    private static final AsyncCallback.StringCallback PARENT_CREATED = (rc, path, ctx, name) -> {
        if (rc != KeeperException.Code.OK.intValue() && rc != KeeperException.Code.NODEEXISTS.intValue()) {
            LOG.log(Level.DEBUG, "the create of the parent " + path + " failed with " + KeeperException.Code.get(rc)
                    + "; the create of our node behind it fails too, and goes through Curator");
        }
    };
    /** {@link #createHook} unset: creates go on the plain handle first ({@link #createPlain}). */
    private static final Consumer<CreateBuilder> NO_CREATE_HOOK = builder -> { };

    final CuratorFramework client;
    private final ZooKeeperErrors errors;
    final HeldNodes held;
    /** Our nodes in use but not held (contenders, releases on their way): see {@link RevivedNodes}. */
    final PendingNodes pending = new PendingNodes();
    /** Our session's nodes we neither hold nor use: a lost create's, a restored server's ({@link #lostCreate}). */
    private final RevivedNodes unused;
    private final SessionListener sessionListener;
    private final long operationNanos;
    final Set<Wakeup> waiting = ConcurrentHashMap.newKeySet();
    private final ZooKeeperPermits permits = new ZooKeeperPermits(this);
    /** Deletes the parents of the names this store released, once they are past their delay and empty. */
    private final EmptiedParents emptiedParents;
    /**
     * The answers being waited for (Curator operations, listings sent behind a create and not yet waited for, stamps
     * and releases' deletes sent on the plain handle): closing the store ends their waits at once.
     */
    private final Set<Cancellable> waits = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();
    /**
     * How many times the connection dropped, counted on ZooKeeper's event thread, which delivers a disconnect before
     * the replies to requests sent again after it: a release that sees it move knows its delete may have been sent
     * twice ({@link #release}).
     */
    private final AtomicLong disconnects = new AtomicLong();
    private final byte[] ownerData;
    /**
     * A random id of this backend, put before the number of the create and our prefix in the name of every node it
     * creates ({@code <id>-<create>-lock-<sequence>}), so that no two creates ever make the same path: not two
     * stores, and not one store after the server's sequence went back (a restore from an older copy, a reaped
     * parent). Curator's protection mode gave that with a random prefix per create; this costs no random draw per
     * create. A release deletes at our node's version, and a node made again at our path would be another's.
     */
    private final String storeId = String.format("%016x", new SecureRandom().nextLong());
    /** The session timeout the URI asked for: the server may agree a different one (see {@link #sessionTimeout()}). */
    private final Duration askedSessionTimeout;
    private final AtomicBoolean warnedOfSessionTimeout = new AtomicBoolean();
    /** The session timeout the server agreed last, as {@link #sessionTimeout()} last made it (none at first). */
    private volatile Duration agreedSessionTimeout;
    /** The terms {@link #terms()} last made, kept while the session timeout they state stays the same. */
    private volatile Terms terms;
    /** The clean-up of a create that answered after we stopped waiting: made once, not per create. */
    private final Consumer<CuratorEvent> deleteLateCreate = late -> {
        if (late.getResultCode() == KeeperException.Code.OK.intValue() && late.getName() != null) {
            deleteInBackground(late.getName());
        }
    };
    /** The clean-up of a create sent on the plain handle that answered after we stopped waiting (its full path). */
    private final Consumer<String> deleteLatePlainCreate = this::deleteLatePlainCreate;
    /** What the creates on the plain handle are made with: the ACL the Curator client's provider gives. */
    private final List<ACL> createAcl;
    /**
     * Tests only: a chance to change each create request (for example to make it lose its reply). Once set, every
     * create goes through Curator, whose request it changes, not on the plain handle first.
     */
    volatile Consumer<CreateBuilder> createHook = NO_CREATE_HOOK;
    /**
     * Tests only: false lists a parent only after our create has answered (to measure what listing behind it saves).
     */
    volatile boolean listBehindCreate = true;
    /**
     * Tests only: runs before our fencing token is stamped: when our node has come first in the queue, or, for a
     * waiter right behind the holder woken by its going, before the stamp sent with its listing ({@link StampAhead}).
     */
    volatile Runnable beforeStampHook = () -> { };
    /**
     * Tests only: runs in {@link #nextToken} right after it took the stamp sent ahead of its listing ({@link
     * StampAhead}) from that listing, before it waits for anything: where {@link #beforeStampHook} runs for a stamp
     * not sent ahead.
     */
    volatile Runnable tookEarlyStampHook = () -> { };
    /**
     * Tests only: runs in a release just before our node's delete is sent on the plain handle. A runtime exception it
     * throws (other than {@code IllegalStateException}, which the release throws) stands for a send that failed
     * before anything went out, as Curator's {@code getZooKeeper()} throws a failure it queued in the background.
     */
    volatile Runnable beforeDeleteHook = () -> { };
    /** Tests only: runs when our node has come first in the queue, just before the grant is made. */
    volatile Runnable beforeGrantHook = () -> { };

    /**
     * A backend over a started client.
     *
     * @param operationTimeout how long any one operation is waited for (the URI's connection timeout)
     * @param sessionTimeout the session timeout the client asked for (the URI's)
     * @param createAcl the ACL the client's ACL provider gives our nodes ({@link CuratorClients#acl})
     */
    ZooKeeperBackend(CuratorFramework client, String redactedUri, Duration operationTimeout, Duration sessionTimeout,
            List<ACL> createAcl) {
        this.client = client;
        this.createAcl = createAcl;
        this.askedSessionTimeout = sessionTimeout;
        this.agreedSessionTimeout = Duration.ZERO; // no server has agreed one yet
        this.terms = Terms.session(sessionTimeout, NodeNames.MAX_NAME_LENGTH);
        this.errors = new ZooKeeperErrors(redactedUri);
        this.operationNanos = operationTimeout.toNanos();
        this.ownerData = OwnerTokens.processDescription().getBytes(StandardCharsets.UTF_8);
        this.held = new HeldNodes(client, redactedUri);
        this.emptiedParents = new EmptiedParents(client, held, redactedUri);
        this.unused = new RevivedNodes(held, pending);
        this.sessionListener = new SessionListener(held, unused, this::wakeWaiters, new SuspendedNudge(storeId),
                redactedUri);
        client.getConnectionStateListenable().addListener(sessionListener);
        client.getCuratorListenable().addListener((c, event) -> {
            if (event.getType() == CuratorEventType.WATCHED && event.getWatchedEvent() != null
                    && event.getWatchedEvent().getType() == Watcher.Event.EventType.None
                    && (event.getWatchedEvent().getState() == Watcher.Event.KeeperState.Disconnected
                            || event.getWatchedEvent().getState() == Watcher.Event.KeeperState.Expired)) {
                disconnects.incrementAndGet();
            }
        });
        sessionTimeout(); // warns now if the server did not agree to the URI's
    }

    /** The path of the parent node of lock {@code name}. */
    static String parentPath(String name) {
        return ROOT + "/" + NodeNames.encode(name);
    }

    /** The nodes held through this backend, for tests. */
    HeldNodes heldNodes() {
        return held;
    }

    /** The parents this backend will delete, for tests. */
    EmptiedParents emptiedParents() {
        return emptiedParents;
    }

    /** The Curator client, for tests and tools. */
    CuratorFramework curator() {
        return client;
    }

    /** Leases end with the session, {@link #sessionTimeout()} after the client goes silent. */
    @Override
    public Terms terms() {
        Duration timeout = sessionTimeout();
        Terms last = terms;
        if (last.sessionTimeout() != timeout) {
            last = Terms.session(timeout, NodeNames.MAX_NAME_LENGTH);
            terms = last;
        }
        return last;
    }

    /**
     * The session timeout the server agreed when this client last connected (a server clamps the one asked for to its
     * {@code minSessionTimeout}..{@code maxSessionTimeout}, 2 to 20 ticks by default): how long the ensemble keeps the
     * session of a silent client, and so its leases. The URI's until a server has answered. The first time it differs
     * from the URI's, a warning says so, once per store.
     */
    Duration sessionTimeout() {
        int negotiated = client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs();
        if (negotiated <= 0) {
            return askedSessionTimeout;
        }
        Duration last = agreedSessionTimeout;
        if (last.toMillis() == negotiated) {
            return last; // the core asks on every lock(name): no Duration made each time
        }
        Duration agreed = Duration.ofMillis(negotiated);
        agreedSessionTimeout = agreed;
        if (!agreed.equals(askedSessionTimeout) && warnedOfSessionTimeout.compareAndSet(false, true)) {
            LOG.log(Level.WARNING, "ZooKeeper store " + errors.store() + ": the server agreed a session timeout of "
                    + agreed + ", not the " + askedSessionTimeout + " asked for (the server's minSessionTimeout and "
                    + "maxSessionTimeout bound it): a lease of this store ends " + agreed + " after the server last "
                    + "heard from its client");
        }
        return agreed;
    }

    @Override
    public void attach(LeaseEvents events) {
        held.attach(events);
        sessionListener.attach(events);
    }

    @Override
    public Grant acquire(String name, Duration leaseTime, Wait wait) throws InterruptedException {
        ensureOpen();
        WaitBudget budget = WaitBudget.forAcquire(wait, operationNanos);
        // a single attempt does not wait, so like Lock.tryLock() it ignores the interrupt flag (and keeps it)
        return budget.interruptible() ? contend(name, budget) : InterruptFlag.aside(() -> contend(name, budget));
    }

    private Grant contend(String name, WaitBudget budget) throws InterruptedException {
        String parent = parentPath(name);
        Wakeup wakeup = null; // made when we first wait: an acquire that finds the lock free needs none
        LockNode ours = null;
        long epoch = 0;
        StampAhead ahead = null; // while we wait right behind a stamped holder: stamp as soon as it goes
        Listing listing = null;
        try {
            if (budget.singleAttempt() && heldEvenAfterCatchingUp(parent, budget)) {
                return null; // held right now: a try-lock need not queue only to leave again
            }
            while (true) {
                if (ours == null) {
                    epoch = held.epoch();
                    Created created = create(name, parent, budget);
                    ours = created.node();
                    listing = created.listing();
                } else if (!listBehindCreate) {
                    listing = null;
                } else if (ahead != null && wakeup.sawDeleted(ahead.predecessor())
                        && ours.sessionId() == currentSession()) {
                    listing = listAndStamp(name, parent, ours, ahead.fence()); // woken by the holder's going
                } else {
                    listing = startListing(parent, true); // woken: list and read the fence at once
                }
                ahead = null;
                String ourName = nodeName(ours.path());
                LockQueue queue = LockQueue.of(childrenAfter(ours, ourName, listing, parent, budget));
                int position = queue.position(ourName);
                boolean current = ours.sessionId() == currentSession();
                if (listing != null && (position != 0 || !current)) {
                    settleEarly(listing.takeEarly(), parent, ours, position >= 0, budget); // not first: no grant
                }
                long token = 0;
                if (position == 0 && current) {
                    token = nextToken("lock", name, parent, ours, ownerData, listing, queue.pinned(), budget);
                    if (token == 0) {
                        position = -1; // our node went before it was stamped (or the parent, and our node with it)
                    }
                }
                if (position == 0 && current) {
                    beforeGrantHook.run();
                    Grant grant = new Grant(name, ownerToken(ours), token, ours);
                    if (held.add(ours, grant, epoch, currentSession())) {
                        pending.remove(ours.path()); // after it was added to the held nodes
                        ours = null; // handed over to the grant
                        return grant;
                    }
                    current = false; // the session ended while we granted: its losses are already reported
                }
                if (position < 0 || !current) {
                    // our node is gone, or it was made in a session that has ended since (the server may keep such
                    // a node until it times the old session out): queue again in the current session
                    if (position >= 0) {
                        deleteInBackground(ours.path());
                    }
                    pending.remove(ours.path());
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
                    waiting.add(wakeup); // before the first watch: wake-ups before it would be reset anyway
                }
                wakeup.reset();
                String predecessor = queue.predecessorOf(position);
                Stat watched = watch(ZKPaths.makePath(parent, predecessor), wakeup, budget);
                if (watched != null) {
                    if (position == 1 && !queue.pinned() && listing != null) {
                        ahead = StampAhead.of(predecessor, watched, listing.fenceIfRead());
                    }
                    wakeup.await(budget.waitNanos(RECHECK_NANOS));
                }
                ensureOpen();
                if (budget.expired()) {
                    return null;
                }
            }
        } finally {
            StampAhead.Sent early = listing == null ? null : listing.takeEarly();
            if (early != null) {
                waits.remove(early.call()); // not waited for: an interrupt, a failure or close ended the acquire
            }
            if (wakeup != null) {
                waiting.remove(wakeup);
                String stillWatched = wakeup.stopWatching();
                if (stillWatched != null) {
                    removeWatch(stillWatched, wakeup, WatcherType.Children);
                }
            }
            if (ours != null) {
                deleteLeftover(ours.path(), budget);
                pending.remove(ours.path());
            }
        }
    }

    /**
     * The fencing token of a grant of {@code name}, whose node {@code ours} under {@code parent} has come first: the
     * next one {@link FenceFloor} gives after the token the parent's state stands for. One transaction writes it into
     * the parent (versioned: read again and retried if another grant wrote it first, for up to one operation timeout)
     * and writes {@code ourData} into our own node at the version we know, so that
     * <ul>
     * <li>a node removed before the stamp (force-released, its session ended) is never granted: the transaction
     * fails and 0 is returned, and the caller queues again;</li>
     * <li>the stamp and our node carry the same {@code mzxid}, by which the admin's force-release tells a stamp of
     * the holder's own from an earlier holder's ({@link ZooKeeperAdmin#forceRelease(String, long)});</li>
     * <li>our node's version moves on from 0, and a release deletes only that version ({@link #release});</li>
     * <li>a token that may be ahead of the server clock ({@link FencePin#needed}) leaves the parent pinned: the pin is
     * made (again, if there), in the same transaction, so the server never deletes the emptied parent of such a
     * token; a token below the clock deletes a pin it finds. An ordinary stamp (below the clock, no pin) is the two
     * writes alone.</li>
     * </ul>
     * 0 also if the parent is gone, and our node with it.
     *
     * <p>The first attempt writes after the fence read sent right behind the listing that found our node first
     * ({@link Listing#fence}), so an uncontended grant waits for one round trip here, not two; the read comes from
     * the parent with our node in it, and a stamp written since only makes the versioned write fail and read again.
     *
     * @param what "lock" or "semaphore", for messages
     * @param ourData what our node holds once it has been stamped (for a permit, the mark that wakes its successor)
     * @param behind the listing that found our node first and the fence read sent behind it, or null: read now
     * @param pinned whether the listing that found our node first showed the parent's pin ({@link FencePin})
     * @throws io.distlock.LockException naming the name if its fence is exhausted (an operator's value)
     */
    long nextToken(String what, String name, String parent, LockNode ours, byte[] ourData, Listing behind,
            boolean pinned, WaitBudget budget) throws InterruptedException {
        StampAhead.Sent early = behind == null ? null : behind.takeEarly();
        if (early == null) {
            beforeStampHook.run(); // a stamp sent ahead ran it before it was sent
        } else {
            tookEarlyStampHook.run();
        }
        long giveUp = budget.operationDeadline();
        Listing.Fence read = null;
        boolean readEnded = false;
        try {
            read = behind == null ? null : behind.fence(giveUp, budget.interruptible());
            readEnded = true;
        } finally {
            if (!readEnded && early != null) {
                // an interrupt ended the wait before the stamp taken from the listing was awaited (its awaitStamp
                // takes it out of the waits, and the caller's finally no longer finds it on the listing)
                waits.remove(early.call());
            }
        }
        boolean pinThere = pinned; // the pin changes only with a stamp (or an operator): a failed op tells us so
        while (true) {
            long next;
            boolean pin;
            boolean pinOp;
            StampCall written;
            boolean unpin = false;
            if (early != null) {
                // sent behind the listing at the fence read while waiting (listAndStamp): an ordinary stamp, which
                // could not delete a pin its listing shows (made while we waited)
                next = early.next();
                pin = false;
                pinOp = false;
                unpin = pinThere;
                written = awaitStamp(early.call(), parent, budget);
                early = null;
            } else {
                if (read == null) {
                    CuratorEvent event = call(budget, "reading the fence of ", parent, new BoundedCall(),
                            callback -> client.getData().inBackground(callback).forPath(parent));
                    if (event.getResultCode() == KeeperException.Code.NONODE.intValue()) {
                        return 0;
                    }
                    check(event, "reading the fence of ", parent);
                    read = new Listing.Fence(event.getData(), event.getStat());
                }
                next = FenceFloor.next(what, name, FenceFloor.last(read.data(), read.stat().getMtime()));
                int version = read.stat().getVersion();
                pin = FencePin.needed(next, read.stat().getMtime());
                read = null; // a write that fails reads again
                int ourVersion = ours.version();
                pinOp = pin || pinThere; // none on an ordinary stamp: below the clock, no pin
                boolean pinWas = pinThere;
                if (pinOp) {
                    CuratorEvent event = call(budget, "writing the fence of ", parent, new BoundedCall(), callback -> {
                        List<CuratorOp> ops = new ArrayList<>(4);
                        ops.add(client.transactionOp().setData().withVersion(ourVersion).forPath(ours.path(), ourData));
                        ops.add(client.transactionOp().setData().withVersion(version)
                                .forPath(parent, FenceFloor.encode(next)));
                        pinOps(parent, pin, pinWas, ops);
                        client.transaction().inBackground(callback).forOperations(ops);
                    });
                    written = StampCall.of(event);
                } else {
                    written = stamp(parent, ours, ourVersion, ourData, version, next, budget);
                }
            }
            if (written.code() == KeeperException.Code.OK.intValue()) {
                ours.version(written.stat(0).getVersion());
                Stat stamped = written.stat(1);
                long token = FenceFloor.granted(next, stamped.getMtime());
                ours.pinnedBy(pin ? stamped.getMzxid() : 0);
                // an unpinned token ahead of the clock (the server clock stepped back since the parent's last write)
                // leaves its parent to the server
                ours.parentVersion(pin || FenceFloor.belowClockAfter(token, stamped.getMtime())
                        ? stamped.getVersion() : LockNode.KEEP_PARENT);
                if (unpin) {
                    unpinBehind(parent, stamped.getVersion());
                }
                return token;
            }
            int ourError = written.error(0);
            if (ourError == KeeperException.Code.NONODE.intValue()) {
                return 0; // our node was removed before it was stamped (force-released, session ended): not granted
            }
            if (!pinOp && sendAgain(ourError)) {
                // sent on the plain handle, which sends nothing again: read the fence again through Curator (on its
                // new connection or session) and write at what it shows; a stamp that went through moved our node's
                // version on, and a node of an ended session is gone, which the next write finds
                ensureOpen();
            } else if (ourError == KeeperException.Code.BADVERSION.intValue()) {
                // another hand wrote into our node: stamp it at its new version if it is still ours, else queue again
                Stat stat = exists(ours.path(), budget, "reading our node ", ours.path());
                if (stat == null || !isOurs(stat, ours)) {
                    return 0;
                }
                ours.version(stat.getVersion());
            } else {
                int fenceError = written.error(1);
                if (fenceError == KeeperException.Code.NONODE.intValue()) {
                    return 0;
                }
                if (fenceError == KeeperException.Code.OK.intValue() && pinOp) {
                    // the pin came or went with another stamp since our listing: write again knowing it
                    int pinError = written.error(2);
                    if (pinError == KeeperException.Code.NODEEXISTS.intValue()) {
                        pinThere = true;
                    } else if (pinError == KeeperException.Code.NONODE.intValue()) {
                        pinThere = false;
                    } else {
                        throwFor(written.code(), parent);
                    }
                } else if (fenceError != KeeperException.Code.BADVERSION.intValue()) {
                    throwFor(written.code(), parent);
                }
            }
            if (System.nanoTime() - giveUp > 0) {
                throw new StoreUnavailableException("ZooKeeper store " + errors.store() + ": the fence of " + what
                        + " " + Arguments.quoted(name)
                        + " was written by other grants at every attempt for the connection timeout of "
                        + Duration.ofNanos(operationNanos));
            }
        }
    }

    /**
     * Deletes the pin that the listing behind a stamp sent ahead showed ({@link #listAndStamp}): that stamp's token is
     * below the clock, so the pin is not needed, and an ordinary stamp would have deleted it in its own transaction.
     * One transaction checks that the parent is still at {@code stampedVersion}, so a pin a later stamp made (which
     * moved the parent) is never deleted. Not waited for: if it fails, the pin stays for the name's next grant.
     */
    private void unpinBehind(String parent, int stampedVersion) {
        String fullParent = held.fullPath(parent);
        try {
            client.getZookeeperClient().getZooKeeper().multi(List.of(Op.check(fullParent, stampedVersion),
                    Op.delete(FencePin.path(fullParent), -1)), (rc, path, ctx, results) -> {
                        if (rc != KeeperException.Code.OK.intValue()) {
                            LOG.log(Level.DEBUG, "the pin of " + parent + " was not deleted after the stamp sent "
                                    + "ahead (" + KeeperException.Code.get(rc) + "); it stays for the next grant");
                        }
                    }, null);
        } catch (Exception e) {
            LOG.log(Level.DEBUG, "could not send the delete of the pin of " + parent + "; it stays for the next grant",
                    e);
        }
    }

    /**
     * Adds to {@code ops} the stamp's operations on the parent's pin ({@link FencePin}), when the pin is {@code needed}
     * or was {@code there}: made if needed and not there; deleted and made again if needed and there, so that what is
     * at its path is a PERSISTENT pin whatever node was there (an operator's EPHEMERAL one would go with its session
     * and leave the parent to the server); deleted if there and not needed. An operator may have deleted it: the
     * transaction then fails on it, and the caller writes again knowing.
     */
    private void pinOps(String parent, boolean needed, boolean there, List<CuratorOp> ops) throws Exception {
        String pin = FencePin.path(parent);
        if (there) {
            ops.add(client.transactionOp().delete().forPath(pin));
        }
        if (needed) {
            ops.add(client.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(pin, FencePin.DATA));
        }
    }

    /**
     * Sends an ordinary stamp (our node's write and the fence's, both versioned) straight on the ZooKeeper handle and
     * waits for it within the budget ({@link StampCall}).
     */
    private StampCall stamp(String parent, LockNode ours, int ourVersion, byte[] ourData, int parentVersion,
            long next, WaitBudget budget) throws InterruptedException {
        return awaitStamp(sendStamp(parent, ours, ourVersion, ourData, parentVersion, next), parent, budget);
    }

    /**
     * Sends an ordinary stamp straight on the ZooKeeper handle without waiting for it; it stays among the {@link
     * #waits} (which close ends) until {@link #awaitStamp} or its caller takes it out.
     */
    private StampCall sendStamp(String parent, LockNode ours, int ourVersion, byte[] ourData, int parentVersion,
            long next) {
        StampCall call = new StampCall();
        waits.add(call);
        try {
            ensureOpen();
            client.getZookeeperClient().getZooKeeper().multi(List.of(
                    Op.setData(held.fullPath(ours.path()), ourData, ourVersion),
                    Op.setData(held.fullPath(parent), FenceFloor.encode(next), parentVersion)), call, null);
            return call;
        } catch (IllegalStateException e) {
            waits.remove(call);
            throw e;
        } catch (Exception e) {
            waits.remove(call);
            throw errors.translate(e, "writing the fence of " + parent);
        }
    }

    /** Waits within the budget for a stamp begun with {@link #sendStamp}. */
    private StampCall awaitStamp(StampCall call, String parent, WaitBudget budget) throws InterruptedException {
        try {
            if (!call.await(budget.operationDeadline(), budget.interruptible())) {
                ensureOpen(); // a wait ended by close
                throw noAnswer("writing the fence of " + parent);
            }
            return call;
        } finally {
            waits.remove(call);
        }
    }

    /**
     * Woken by the deletion of the holder right before us ({@link StampAhead}): lists the parent and sends our stamp
     * right behind the listing, at the fence read while we waited, so the grant waits for one round trip after the
     * wake-up instead of two (a listing and read, then the stamp). The stamp rides on the listing ({@link
     * Listing#takeEarly}) to {@link #nextToken} if the listing shows us first, else to {@link #settleEarly}. A fence
     * that needs the pin (a token ahead of the clock), or a stamp that cannot be sent, gets the listing and fence
     * read of every other wake-up instead.
     */
    private Listing listAndStamp(String name, String parent, LockNode ours, Listing.Fence fence) {
        long mtime = fence.stat().getMtime();
        long next;
        try {
            next = FenceFloor.next("lock", name, FenceFloor.last(fence.data(), mtime));
        } catch (LockException exhausted) {
            return startListing(parent, true); // the ordinary stamp throws it, naming the lock
        }
        if (FencePin.needed(next, mtime)) {
            return startListing(parent, true);
        }
        beforeStampHook.run();
        Listing listing = startListing(parent, false);
        if (listing == null) {
            return null;
        }
        try {
            listing.stampedBehind(new StampAhead.Sent(
                    sendStamp(parent, ours, ours.version(), ownerData, fence.stat().getVersion(), next), next));
        } catch (IllegalStateException | LockException e) {
            // closed, or no connection to send on: the ordinary stamp after the listing meets it again
            LOG.log(Level.DEBUG, "could not send the stamp of " + parent + " behind its listing; stamping after it", e);
        }
        return listing;
    }

    /**
     * Ends a stamp sent ahead ({@link #listAndStamp}) whose listing did not show us first (an older node came back
     * with a restored server), or showed a node of an ended session: no grant. If our node is still listed its
     * version is what the stamp left it at, so the answer is waited for (it came right behind the listing's); the
     * token it wrote is given to no one, which a later grant's token passes like any other.
     */
    private void settleEarly(StampAhead.Sent early, String parent, LockNode ours, boolean listed, WaitBudget budget)
            throws InterruptedException {
        if (early == null) {
            return;
        }
        if (!listed) {
            waits.remove(early.call()); // our node is gone: nothing of ours to keep
            return;
        }
        StampCall written = awaitStamp(early.call(), parent, budget);
        if (written.code() == KeeperException.Code.OK.intValue()) {
            ours.version(written.stat(0).getVersion());
            LOG.log(Level.INFO, "stamped " + ours.path() + " behind the listing that showed it is not first: no grant");
        }
    }

    /**
     * Whether a stamp sent on the plain handle failed for its connection or session, not for what it wrote: Curator
     * would have sent it again on its next connection or session, and so does {@link #nextToken}, after reading again.
     */
    private static boolean sendAgain(int code) {
        return code == KeeperException.Code.CONNECTIONLOSS.intValue()
                || code == KeeperException.Code.SESSIONEXPIRED.intValue()
                || code == KeeperException.Code.SESSIONMOVED.intValue();
    }

    /** Throws what a failed stamp's result code means. */
    private void throwFor(int code, String parent) {
        throw errors.translate(KeeperException.create(KeeperException.Code.get(code), parent),
                "writing the fence of " + parent);
    }

    /**
     * The owner token of a grant made with {@code node}: its path. ZooKeeper proves ownership by the session that owns
     * the ephemeral node, not by a token, so the core only needs a value unique to the grant, and the path is one
     * (its name carries this store's random id and the number of the create, {@link #storeId}): no random draw per
     * acquire and no second string per held lease.
     */
    static String ownerToken(LockNode node) {
        return node.path();
    }

    /**
     * Our contender node, and the listing of its parent sent right behind its create (null if it could not be sent).
     */
    record Created(LockNode node, Listing listing) {
    }

    /**
     * Creates our contender node. A missing parent is created on demand as a CONTAINER node (the server deletes it
     * once it has been emptied), also when the server deletes an emptied parent between its creation and ours, or
     * deletes the emptied root while Curator makes the parent again (Curator then answers NONODE, and we create
     * again, for up to one operation timeout). A create whose reply is lost is sent again by Curator, and the node the
     * lost one made is deleted by us ({@link #lostCreate}, {@link RevivedNodes}); one that succeeds after we stopped
     * waiting is deleted.
     *
     * <p>The listing of the parent goes out right behind the create, without waiting for the create's reply:
     * ZooKeeper processes one session's requests in the order they were sent, so that listing is taken after our node
     * was made, and an acquisition waits for two replies in a row instead of three ({@link #childrenAfter}).
     */
    private Created create(String name, String parent, WaitBudget budget) throws InterruptedException {
        return create(parent, LockQueue.NODE_PREFIX, listBehindCreate, emptiedParents.waitsFor(name, false), budget);
    }

    /**
     * A contender node with our part of the name before the sequence (permits), and the listing of its parent sent
     * right behind it as for locks (null if it could not be sent); hand both to {@link #childrenAfter}.
     */
    Created create(String name, String parent, String nodePrefix, WaitBudget budget) throws InterruptedException {
        return create(parent, nodePrefix, listBehindCreate, emptiedParents.waitsFor(name, true), budget);
    }

    /**
     * Creates our contender node under {@code parent}, again while the server deletes a parent in between.
     *
     * @param parentThere whether the parent is most likely there: this store released the name within the last
     *     {@link EmptiedParents#DELAY} and has not deleted its parent since. Otherwise the create on the plain handle
     *     ({@link #createPlain}) is sent right behind a create of the parent, in the same round trip
     */
    private Created create(String parent, String nodePrefix, boolean listBehind, boolean parentThere,
            WaitBudget budget) throws InterruptedException {
        long giveUp = budget.operationDeadline();
        while (true) {
            Created created = createOnce(parent, nodePrefix, listBehind, parentThere, budget);
            if (created != null) {
                return created;
            }
            // NONODE: the server deleted an emptied CONTAINER ancestor (the root) between Curator's check of it and
            // its create of our parent. Nothing was created: create again, which makes the missing nodes again
            if (System.nanoTime() - giveUp > 0) {
                throw new StoreUnavailableException("ZooKeeper store " + errors.store() + ": the server deleted a "
                        + "parent of " + parent + " at every attempt to create a node under it for the connection "
                        + "timeout of " + Duration.ofNanos(operationNanos));
            }
        }
    }

    /** One create of our contender node; null if a parent was deleted before our node could be made (NONODE). */
    private Created createOnce(String parent, String nodePrefix, boolean listBehind, boolean parentThere,
            WaitBudget budget) throws InterruptedException {
        long number = pending.creating(); // before the create is sent: its node may be listed before it is read
        String path = parent + '/' + storeId + '-' + number + '-' + nodePrefix;
        String made = null;
        try {
            Created created = createHook == NO_CREATE_HOOK
                    ? createPlain(parent, path, listBehind, !parentThere, budget) : null;
            if (created == null) {
                created = createThroughCurator(parent, path, listBehind, budget);
            }
            made = created == null ? null : created.node().path();
            return created;
        } finally {
            pending.created(number, made); // the caller removes it once it is held or given up
        }
    }

    /**
     * Creates our node at {@code path} (the sequence follows) straight on the ZooKeeper handle, with the listing
     * behind it: what Curator's create does when the parent is there and the connection holds, without its builder
     * chain, namespace fixing of the path, operation and event objects. Null if it failed in any way (no parent, a
     * lost connection or session, a send that could not go out, a refusal): the caller then creates through Curator
     * as before, which makes missing parents, sends again on its next connection or session, and throws what a
     * refusal means. A create whose reply the dropped connection lost may have made a node: one of our session's that
     * we neither hold nor use, as the one of a Curator create whose reply was lost ({@link #lostCreate}, {@link
     * RevivedNodes}). No answer within the operation timeout fails the acquire, as Curator's create did; a node made
     * after the wait was given up is deleted.
     *
     * <p>With {@code makeParent}, the parent is created first, in the same burst and not waited for ({@link
     * #createParent}): ZooKeeper processes one session's requests in order, so our create finds it made (or there
     * already), and a fresh name costs one round trip here instead of Curator's six (a create that finds no parent,
     * a check of each ancestor, the parent's create and the create again, then the listing, which came too early).
     * A parent that was there costs one request more, answered NODEEXISTS, and no round trip.
     */
    private Created createPlain(String parent, String path, boolean listBehind, boolean makeParent,
            WaitBudget budget) throws InterruptedException {
        CreateCall call = new CreateCall(deleteLatePlainCreate);
        waits.add(call);
        Listing listing = null;
        boolean done = false;
        try {
            ensureOpen();
            try {
                ZooKeeper zooKeeper = client.getZookeeperClient().getZooKeeper();
                if (makeParent) {
                    createParent(zooKeeper, parent);
                }
                zooKeeper.create(held.fullPath(path), ownerData, createAcl, CreateMode.EPHEMERAL_SEQUENTIAL, call,
                        null);
            } catch (IllegalStateException e) {
                throw e;
            } catch (Exception e) {
                LOG.log(Level.DEBUG, "could not send the create under " + parent + " on the plain handle; through "
                        + "Curator", e);
                return null;
            }
            listing = listBehind ? startListing(parent, true) : null;
            if (!call.await(budget.operationDeadline(), budget.interruptible())) {
                ensureOpen(); // a wait ended by close
                throw noAnswer(CREATING + parent);
            }
            if (call.code() != KeeperException.Code.OK.intValue()) {
                return null;
            }
            Created created = new Created(node(held.relative(call.name()), call.stat(), parent, budget),
                    listing);
            done = true;
            return created;
        } finally {
            waits.remove(call);
            if (!done && listing != null) {
                waits.remove(listing);
            }
        }
    }

    /**
     * Sends the create of {@code parent} as Curator's {@code creatingParentContainersIfNeeded} makes it (a CONTAINER
     * node, no data, the client's ACL), without waiting for it: the create of our node sent right behind it answers
     * for both (NONODE if the parent could not be made, its root missing, say: then Curator makes every missing node).
     * An empty parent made by a create whose node create then failed is the server's to delete, as Curator's.
     */
    private void createParent(ZooKeeper zooKeeper, String parent) {
        zooKeeper.create(held.fullPath(parent), NO_DATA, createAcl, CreateMode.CONTAINER, PARENT_CREATED, null);
    }

    /** Deletes in the background the node (its full path) of a plain create answered after we stopped waiting. */
    private void deleteLatePlainCreate(String fullPath) {
        deleteInBackground(held.relative(fullPath));
    }

    /** One create of our node at {@code path} through Curator; null if a parent was deleted meanwhile (NONODE). */
    private Created createThroughCurator(String parent, String path, boolean listBehind, WaitBudget budget)
            throws InterruptedException {
        CreateBuilder builder = client.create();
        createHook.accept(builder);
        Listing[] listing = new Listing[1];
        boolean done = false;
        try {
            CuratorEvent event = call(budget, CREATING, parent, new BoundedCall(deleteLateCreate), callback -> {
                // no protection mode: a protected create whose retries are spent hands itself to Curator's
                // background clean-up, which runs itself again on the same stack while the client is not connected
                // (CURATOR-106: Z8 of lock-tck/DEFECTS.md). A lost create's node is ours to find: see lostCreate
                builder.creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                        .inBackground(callback).forPath(path, ownerData);
                listing[0] = listBehind ? startListing(parent, true) : null;
            });
            if (event.getResultCode() == KeeperException.Code.NONODE.intValue()) {
                return null;
            }
            check(event, CREATING, parent);
            Created created = new Created(node(event.getName(), event.getStat(), parent, budget), listing[0]);
            done = true;
            return created;
        } finally {
            if (!done && listing[0] != null) {
                waits.remove(listing[0]);
            }
        }
    }

    /**
     * Sends a listing of {@code parent} and the read of its fence without waiting for them, on the plain ZooKeeper
     * handle (see {@link Listing}); null if they could not be sent (listed and read later).
     */
    private Listing startListing(String parent, boolean read) {
        Listing listing = new Listing(read);
        waits.add(listing);
        try {
            ZooKeeper zooKeeper = client.getZookeeperClient().getZooKeeper();
            String path = held.fullPath(parent);
            zooKeeper.getChildren(path, false, listing, null);
            if (read) {
                zooKeeper.getData(path, false, listing, null);
            }
            return listing;
        } catch (Exception e) {
            waits.remove(listing);
            LOG.log(Level.DEBUG, "could not send the listing of " + parent + " behind our create; listing after it", e);
            return null;
        }
    }

    /**
     * The children of {@code parent} once our node is there: those of the listing sent behind its create if that
     * listing shows our node, else listed now (the create was retried or found again after a lost reply, or the
     * parent had to be created first, so the listing came too early). Only a listing used here hands out the fence
     * read behind it ({@link Listing#fence}).
     */
    List<String> childrenAfter(LockNode ours, Listing listing, String parent, WaitBudget budget)
            throws InterruptedException {
        return childrenAfter(ours, nodeName(ours.path()), listing, parent, budget);
    }

    /** {@link #childrenAfter(LockNode, Listing, String, WaitBudget)} for our node named {@code ourName}. */
    private List<String> childrenAfter(LockNode ours, String ourName, Listing listing, String parent,
            WaitBudget budget) throws InterruptedException {
        if (listing != null) {
            List<String> listed;
            try {
                listed = listing.awaitShowing(ourName, budget.operationDeadline(),
                        budget.interruptible());
            } finally {
                waits.remove(listing);
            }
            if (listed != null) {
                return listed;
            }
        }
        return children(parent, budget);
    }

    /**
     * The last segment of a node path we made ourselves, without {@code ZKPaths.getNodeFromPath}'s validation (a
     * copy of the path into a char array on every call, twice per acquire).
     */
    static String nodeName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** Our node from the reply to its create: the node {@code created} (chroot-relative), {@code stat} if known. */
    private LockNode node(String created, Stat stat, String parent, WaitBudget budget) throws InterruptedException {
        if (stat == null) {
            // a create reply without its stat (none is known from Curator's plain create2): read it
            stat = exists(created, budget, CREATING, parent);
            if (stat == null) {
                throw new StoreUnavailableException("ZooKeeper store " + errors.store() + ": our node under "
                        + parent + " vanished right after it was created (its session ended)");
            }
        }
        return new LockNode(created, stat.getCzxid(), stat.getEphemeralOwner());
    }

    /**
     * Whether the lock under {@code parent} is held, read without queueing. A "held" answer is read again after this
     * client's server caught up with the leader: a follower may not yet have applied a release that another client
     * made before this call. A "free" answer needs no such care: the queue entry that follows is a write, ordered
     * after every earlier one.
     */
    private boolean heldEvenAfterCatchingUp(String parent, WaitBudget budget) throws InterruptedException {
        if (LockQueue.of(children(parent, budget)).isEmpty()) {
            return false;
        }
        sync(parent, budget);
        return !LockQueue.of(children(parent, budget)).isEmpty();
    }

    List<String> children(String parent, WaitBudget budget) throws InterruptedException {
        CuratorEvent event = call(budget, "listing ", parent, new BoundedCall(),
                callback -> client.getChildren().inBackground(callback).forPath(parent));
        if (event.getResultCode() == KeeperException.Code.NONODE.intValue()) {
            return List.of();
        }
        check(event, "listing ", parent);
        return event.getChildren();
    }

    private Stat exists(String path, WaitBudget budget, String doing, String subject) throws InterruptedException {
        CuratorEvent event = call(budget, doing, subject, new BoundedCall(),
                callback -> client.checkExists().inBackground(callback).forPath(path));
        if (event.getResultCode() == KeeperException.Code.NONODE.intValue()) {
            return null;
        }
        check(event, doing, subject);
        return event.getStat();
    }

    /**
     * Watches {@code predecessor} until it goes: its stat as the watch read it, or null if it is already gone
     * (re-check at once). The watch is a child watch ({@link #watchUntilGone}), so the predecessor's own stamp, a
     * write into its node when it comes first, does not wake us: only its deletion does.
     */
    private Stat watch(String predecessor, Wakeup wakeup, WaitBudget budget) throws InterruptedException {
        String what = "watching " + predecessor;
        CuratorEvent event = call(budget, what, new BoundedCall(late -> {
            if (late.getResultCode() == KeeperException.Code.OK.intValue()) {
                removeWatch(predecessor, wakeup, WatcherType.Children); // set after we stopped waiting for it
            }
        }), callback -> watchUntilGone(predecessor, wakeup, callback));
        if (event.getResultCode() == KeeperException.Code.NONODE.intValue()) {
            return null; // no watch is left on a node that does not exist
        }
        check(event, what);
        if (lostCreate(predecessor, event.getStat())) {
            deleteLostCreate(predecessor); // its deletion fires the watch just set: at most an early re-check
            return null;
        }
        String before = wakeup.watching(predecessor);
        if (before != null) {
            removeWatch(before, wakeup, WatcherType.Children);
        }
        Stat stat = event.getStat();
        return stat != null ? stat : new Stat(); // a blank stat matches no stamp: no stamp ahead (StampAhead)
    }

    /**
     * Sends a watch on {@code path} that fires when the node is deleted and not when its data changes: a child watch
     * (getChildren with a watcher), which fires on the node's deletion ({@code NodeDeleted}) and when a child is made
     * or deleted, and a contender node is ephemeral, so it has no children. A data watch (getData, exists) would also
     * fire on the write that stamps the node when it comes first: a wake-up, listing and watch for nothing on every
     * hand-over. Like getData, it answers NONODE and leaves no watch if the node is already gone, and its reply
     * carries the node's stat ({@code getChildren2}), whose {@code ephemeralOwner} {@link #lostCreate} reads.
     * Remove it with {@link WatcherType#Children}.
     */
    void watchUntilGone(String path, Wakeup wakeup, BoundedCall callback) throws Exception {
        client.getChildren().usingWatcher(wakeup).inBackground(callback).forPath(path);
    }

    /**
     * Whether the node at {@code path}, which a read has just described with {@code stat}, was made by a create of ours
     * whose reply was lost: a node of our current session that this client neither holds nor uses, read once the
     * create that made it (the number in its name) has ended, whatever other creates are in flight (S78 of
     * lock-tck/DEFECTS.md: waiting for all of them to end left such a node ahead of the waiters of a busy store).
     * Curator sent that create again after the connection loss and the node we use is the one it made then, behind
     * this one ({@link RevivedNodes}).
     */
    boolean lostCreate(String path, Stat stat) {
        if (stat == null || stat.getEphemeralOwner() == 0 || stat.getEphemeralOwner() != currentSession()) {
            return false;
        }
        return unused.judgeable(createNumber(nodeName(path))) && unused.unused(path);
    }

    /**
     * The number of our create that made the node named {@code node} ({@code <store id>-<create>-...}), or 0 if the
     * name is not one of this store's.
     */
    long createNumber(String node) {
        int from = storeId.length() + 1;
        if (!node.startsWith(storeId) || node.length() <= from || node.charAt(from - 1) != '-') {
            return 0;
        }
        int to = node.indexOf('-', from);
        if (to <= from) {
            return 0;
        }
        try {
            return Long.parseLong(node, from, to, 10);
        } catch (NumberFormatException e) {
            return 0; // not a name of ours
        }
    }

    /** Deletes the node of a create of ours whose reply was lost ({@link #lostCreate}), in the background. */
    void deleteLostCreate(String path) {
        LOG.log(Level.INFO, "deleting " + path + ": a node of this client's session that it neither holds nor waits "
                + "with, ahead of its own (a create whose reply was lost)");
        deleteInBackground(path);
    }

    /**
     * Removes our watch of {@code type} on {@code path} from the client (and the server, if connected), in the
     * background: {@link WatcherType#Children} for one {@link #watchUntilGone} set, {@link WatcherType#Data} for a
     * getData watch.
     */
    void removeWatch(String path, Wakeup wakeup, WatcherType type) {
        try {
            client.watchers().remove(wakeup).ofType(type).locally().quietly().inBackground()
                    .forPath(path);
        } catch (Exception e) {
            LOG.log(Level.DEBUG, "could not remove the watch on " + path + "; it goes when it fires", e);
        }
    }

    /**
     * Deletes a node we queued with but will not hold (timeout, interrupt, failure), waiting for it within the
     * budget so that the next contender finds the lock free at once; past that Curator keeps retrying in the
     * background (a guaranteed delete), and the node goes with the session at the latest.
     */
    void deleteLeftover(String path, WaitBudget budget) {
        BoundedCall call = new BoundedCall();
        try {
            client.delete().guaranteed().inBackground(call).forPath(path);
            call.await(budget.operationDeadline(), false);
        } catch (Exception e) {
            LOG.log(Level.DEBUG, "could not delete " + path + " now; Curator keeps retrying (guaranteed delete), "
                    + "and it goes with the session at the latest", e);
        }
    }

    /** Deletes a node without waiting: Curator retries it until it is done (a guaranteed delete). */
    void deleteInBackground(String path) {
        try {
            client.delete().guaranteed().inBackground().forPath(path);
        } catch (Exception e) {
            LOG.log(Level.DEBUG, "could not delete " + path + "; it goes with its session", e);
        }
    }

    /**
     * Releases the grant ({@link #deleteOurNode}) and, if it was released, has {@link EmptiedParents} delete the
     * name's parent a while later if nobody stamps it again and it is empty then (no request on the release's path).
     */
    @Override
    public boolean release(Grant grant) {
        boolean released = deleteOurNode(grant);
        if (released) {
            emptiedParents.released(grant);
        }
        return released;
    }

    /**
     * Deletes the grant's node at the version its stamp left it (one request): a node made again at our path by
     * another client has another version and is not deleted in our name. A node whose version moved on (an
     * operator wrote into it) is deleted only if it is still ours ({@link #isOurs}: our session, our create). A
     * delete answered "no node" after the connection dropped while it was on its way, in a session that lives on, is
     * taken as released: Curator sends a guaranteed delete again after a connection loss, so the first one may have
     * deleted the node and lost its reply (a force-release in that same moment then goes unreported at release).
     */
    private boolean deleteOurNode(Grant grant) {
        LockNode node = (LockNode) grant.handle();
        pending.add(node.path()); // in use until its delete has answered (or not): not one to sweep meanwhile
        held.remove(node.path());
        WaitBudget budget = WaitBudget.forCall(operationNanos);
        try {
            long disconnectsBefore = disconnects.get();
            int code = deletePlain(node.path(), node.version(), budget);
            boolean sentAgain = false;
            if (code != KeeperException.Code.OK.intValue() && code != KeeperException.Code.NONODE.intValue()
                    && code != KeeperException.Code.BADVERSION.intValue()) {
                // lost with its connection or session, not answered in time, or not sent: Curator's guaranteed delete
                // sends it (again, and on in the background past the budget); only a first one that went out may have
                // gone through unheard
                sentAgain = code != NOT_SENT;
                code = delete(node.path(), node.version(), budget, grant.name());
            }
            if (code == KeeperException.Code.NONODE.intValue()
                    && (sentAgain || disconnects.get() != disconnectsBefore)
                    && node.sessionId() == currentSession()) {
                return true; // most likely our own first delete, whose reply the dropped connection lost
            }
            if (code == KeeperException.Code.BADVERSION.intValue()) {
                Stat stat = exists(node.path(), budget, "checking that its changed node is still ours, releasing ",
                        grant.name());
                if (stat == null || !isOurs(stat, node)) {
                    return false; // made again at its path by another session (an operator's hand): not ours
                }
                code = delete(node.path(), stat.getVersion(), budget, grant.name());
            }
            return code == KeeperException.Code.OK.intValue();
        } catch (InterruptedException e) {
            throw new AssertionError("an uninterruptible wait was interrupted", e);
        } finally {
            pending.remove(node.path());
        }
    }

    /**
     * Deletes {@code path} at {@code version} once, straight on the ZooKeeper handle ({@link DeleteCall}): its result
     * code, CONNECTIONLOSS if it was not answered within the budget (it may still be applied), or {@link #NOT_SENT} if
     * it could not be sent (nothing went out). The caller then hands it to Curator's guaranteed delete.
     */
    private int deletePlain(String path, int version, WaitBudget budget) throws InterruptedException {
        DeleteCall call = new DeleteCall();
        waits.add(call);
        try {
            ensureOpen();
            beforeDeleteHook.run();
            client.getZookeeperClient().getZooKeeper().delete(held.fullPath(path), version, call, null);
            return call.await(budget.operationDeadline(), false) ? call.code()
                    : KeeperException.Code.CONNECTIONLOSS.intValue();
        } catch (InterruptedException | IllegalStateException e) {
            throw e;
        } catch (Exception e) {
            LOG.log(Level.DEBUG, "could not send the delete of " + path + " on the plain handle; through Curator", e);
            return NOT_SENT;
        } finally {
            waits.remove(call);
        }
    }

    /**
     * Deletes {@code path} at {@code version} (Curator retries a guaranteed delete in the background past the
     * budget): OK, NONODE or BADVERSION; any other result is thrown.
     */
    private int delete(String path, int version, WaitBudget budget, String name) throws InterruptedException {
        CuratorEvent event = call(budget, RELEASING, name, new BoundedCall(),
                callback -> client.delete().guaranteed().withVersion(version).inBackground(callback).forPath(path));
        int code = event.getResultCode();
        if (code != KeeperException.Code.NONODE.intValue() && code != KeeperException.Code.BADVERSION.intValue()) {
            check(event, RELEASING, name);
        }
        return code;
    }

    /**
     * Checks, in one round trip for all of them, that each lease's node still exists and belongs to the current
     * session; the others are no longer held. There is nothing to renew: a node lives as long as its session.
     */
    @Override
    public Set<Grant> renew(List<Renewal> renewals) {
        Set<Grant> lost = new HashSet<>();
        long session = currentSession();
        WaitBudget budget = WaitBudget.forCall(operationNanos);
        List<Renewal> asked = new ArrayList<>();
        List<BoundedCall> calls = new ArrayList<>();
        for (Renewal renewal : renewals) {
            LockNode node = (LockNode) renewal.grant().handle();
            if (!held.contains(node.path()) || node.sessionId() != session) {
                lost.add(renewal.grant());
                continue;
            }
            BoundedCall call = new BoundedCall();
            try {
                client.checkExists().inBackground(call).forPath(node.path());
            } catch (Exception e) {
                throw errors.translate(e, "checking " + node.path());
            }
            asked.add(renewal);
            calls.add(call);
        }
        long deadline = budget.operationDeadline();
        for (int i = 0; i < asked.size(); i++) {
            Grant grant = asked.get(i).grant();
            LockNode node = (LockNode) grant.handle();
            CuratorEvent event;
            try {
                event = calls.get(i).await(deadline, false);
            } catch (InterruptedException e) {
                throw new AssertionError("an uninterruptible wait was interrupted", e);
            }
            String what = "checking " + node.path();
            if (event == null) {
                throw noAnswer(what);
            }
            if (event.getResultCode() == KeeperException.Code.NONODE.intValue()) {
                lost.add(grant);
                continue;
            }
            check(event, what);
            if (!isOurs(event.getStat(), node)) {
                lost.add(grant);
            }
        }
        return lost;
    }

    /**
     * Whether the node ZooKeeper describes with {@code stat} is the one our grant created: our session's, made by the
     * same transaction. A node deleted and made again at its path by another client (an operator's hand) is not.
     */
    static boolean isOurs(Stat stat, LockNode node) {
        return stat.getEphemeralOwner() == node.sessionId() && stat.getCzxid() == node.czxid();
    }

    /** Starts one background operation and waits for its event within the budget. */
    CuratorEvent call(WaitBudget budget, String what, BoundedCall call, Starter starter)
            throws InterruptedException {
        return call(budget, what, "", call, starter);
    }

    /**
     * {@link #call(WaitBudget, String, BoundedCall, Starter)} doing {@code doing + subject}, a text put together only
     * for a message (a failure): an operation that succeeds builds no string to describe itself.
     */
    private CuratorEvent call(WaitBudget budget, String doing, String subject, BoundedCall call, Starter starter)
            throws InterruptedException {
        start(doing, subject, call, starter);
        return await(budget, doing, subject, call);
    }

    /**
     * Starts one background operation without waiting for it, so that several go out in one round trip; wait for
     * each with {@link #await} (or {@link #abandon} it). Closing the store ends the wait.
     */
    void start(String what, BoundedCall call, Starter starter) {
        start(what, "", call, starter);
    }

    private void start(String doing, String subject, BoundedCall call, Starter starter) {
        waits.add(call);
        boolean started = false;
        try {
            ensureOpen();
            try {
                starter.start(call);
            } catch (Exception e) {
                throw errors.translate(e, doing + subject);
            }
            started = true;
        } finally {
            if (!started) {
                waits.remove(call);
            }
        }
    }

    /** Leaves an operation begun with {@link #start} without waiting for it: its result goes to its clean-up. */
    void abandon(BoundedCall call) {
        call.abandon();
        waits.remove(call);
    }

    /** Waits within the budget for the event of an operation begun with {@link #start}. */
    CuratorEvent await(WaitBudget budget, String what, BoundedCall call) throws InterruptedException {
        return await(budget, what, "", call);
    }

    private CuratorEvent await(WaitBudget budget, String doing, String subject, BoundedCall call)
            throws InterruptedException {
        try {
            CuratorEvent event = call.await(budget.operationDeadline(), budget.interruptible());
            if (event == null) {
                ensureOpen(); // a wait ended by close
                throw noAnswer(doing + subject);
            }
            return event;
        } finally {
            waits.remove(call);
        }
    }

    private StoreUnavailableException noAnswer(String what) {
        return new StoreUnavailableException("ZooKeeper store " + errors.store() + " did not answer within the "
                + "connection timeout of " + Duration.ofNanos(operationNanos) + " while " + what);
    }

    /**
     * Makes the server this client reads from catch up with the leader, within one operation timeout: ZooKeeper
     * promises a session only its own writes, and a follower may not yet have applied another client's.
     */
    void sync(String path) throws InterruptedException {
        sync(path, WaitBudget.forCall(operationNanos));
    }

    /** {@link #sync(String)} within {@code budget}. */
    void sync(String path, WaitBudget budget) throws InterruptedException {
        CuratorEvent event = call(budget, "syncing ", path, new BoundedCall(),
                callback -> client.sync().inBackground(callback).forPath(path));
        if (event.getResultCode() != KeeperException.Code.NONODE.intValue()) {
            check(event, "syncing ", path);
        }
    }

    /** Throws what {@code event}'s result code means, unless it is OK. */
    void check(CuratorEvent event, String what) {
        check(event, what, "");
    }

    /** {@link #check(CuratorEvent, String)} doing {@code doing + subject}, put together only if it is not OK. */
    private void check(CuratorEvent event, String doing, String subject) {
        if (event.getResultCode() != KeeperException.Code.OK.intValue()) {
            throw errors.translate(KeeperException.create(KeeperException.Code.get(event.getResultCode()),
                    event.getPath()), doing + subject);
        }
    }

    /** The client's current session id, or 0 if it has none right now. */
    long currentSession() {
        try {
            return client.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            return 0;
        }
    }

    // ---- semaphores: ZooKeeperPermits, under a root of their own; release and renew are the lock's ---------------

    @Override
    public int maxPermits() {
        return ZooKeeperPermits.MAX_PERMITS;
    }

    @Override
    public Grant acquirePermit(String name, int limit, Duration leaseTime, Wait wait)
            throws InterruptedException {
        ensureOpen();
        WaitBudget budget = WaitBudget.forAcquire(wait, operationNanos);
        return budget.interruptible() ? permits.contend(name, limit, budget)
                : InterruptFlag.aside(() -> permits.contend(name, limit, budget));
    }

    @Override
    public boolean releasePermit(Grant grant) {
        return release(grant);
    }

    @Override
    public Set<Grant> renewPermits(List<Renewal> renewals) {
        return renew(renewals);
    }

    @Override
    public int heldPermits(String name) {
        return permits.held(name, WaitBudget.forCall(operationNanos));
    }

    @Override
    public PermitBackend permits() {
        return this;
    }

    @Override
    public LockAdmin admin() {
        return new ZooKeeperAdmin(this, errors);
    }

    /** The core's store begins to close: waiters wake, see their stopped wait and return before the session ends. */
    @Override
    public void closing() {
        wakeWaiters();
    }

    private void wakeWaiters() {
        waiting.forEach(Wakeup::wake);
    }

    void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("store " + errors.store() + " is closed");
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        wakeWaiters();
        waits.forEach(Cancellable::cancel);
        sessionListener.close();
        held.close();
        emptiedParents.close();
        client.close();
    }

    /** Starts a Curator operation in the background with the given callback. */
    @FunctionalInterface
    interface Starter {
        void start(BoundedCall callback) throws Exception;
    }
}
