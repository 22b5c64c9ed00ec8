package io.distlock.zookeeper;

import io.distlock.spi.Grant;
import io.distlock.spi.LeaseEvents;
import io.distlock.spi.LeaseModel;
import io.distlock.spi.LockAdmin;
import io.distlock.spi.LockBackend;
import io.distlock.spi.OwnerTokens;
import io.distlock.spi.Renewal;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CreateBuilder;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The ZooKeeper store's operations. A contender creates a protected EPHEMERAL_SEQUENTIAL node under the lock's
 * CONTAINER parent; the lowest sequence holds the lock; every other contender watches only the node just before its
 * own (no herd effect) and re-checks when it goes, or every {@link #RECHECK_NANOS} as a safety net. The fencing token
 * is the node's czxid, which grows across the whole ensemble, so it keeps growing even when the server deletes an
 * empty parent and its sequence counter starts again. Leases live as long as the session: see
 * {@link SessionListener}.
 */
final class ZooKeeperBackend implements LockBackend {

    /** Where lock parents live, under the store's chroot. */
    static final String ROOT = "/distlock";

    private static final System.Logger LOG = System.getLogger(ZooKeeperBackend.class.getName());
    private static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final int CREATE_ATTEMPTS = 5;

    private final CuratorFramework client;
    private final ZooKeeperErrors errors;
    private final HeldNodes held;
    private final SessionListener sessionListener;
    private final Set<Wakeup> waiting = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final byte[] ownerData;
    /** Tests only: a chance to change each create request (for example to make it lose its reply). */
    volatile Consumer<CreateBuilder> createHook = builder -> { };

    ZooKeeperBackend(CuratorFramework client, String redactedUri) {
        this.client = client;
        this.errors = new ZooKeeperErrors(redactedUri);
        this.ownerData = OwnerTokens.processDescription().getBytes(StandardCharsets.UTF_8);
        this.held = new HeldNodes(client, redactedUri);
        this.sessionListener = new SessionListener(held, this::wakeWaiters, redactedUri);
        client.getConnectionStateListenable().addListener(sessionListener);
    }

    /** The path of the parent node of lock {@code name}. */
    static String parentPath(String name) {
        return ROOT + "/" + NodeNames.encode(name);
    }

    /** The Curator client, for tests and tools. */
    CuratorFramework curator() {
        return client;
    }

    @Override
    public LeaseModel leaseModel() {
        return LeaseModel.SESSION;
    }

    @Override
    public int maxNameLength() {
        return NodeNames.MAX_NAME_LENGTH;
    }

    @Override
    public void attach(LeaseEvents events) {
        held.attach(events);
        sessionListener.attach(events);
    }

    @Override
    public Grant acquire(String name, Duration leaseTime, long timeoutNanos) throws InterruptedException {
        ensureOpen();
        long deadline = System.nanoTime() + Math.max(0, timeoutNanos);
        String parent = parentPath(name);
        Wakeup wakeup = new Wakeup();
        waiting.add(wakeup);
        LockNode ours = null;
        try {
            if (timeoutNanos == 0 && !LockQueue.of(children(parent)).isEmpty()) {
                return null; // held right now: a try-lock need not queue only to leave again
            }
            while (true) {
                if (ours == null) {
                    ours = create(parent);
                }
                String ourName = ZKPaths.getNodeFromPath(ours.path());
                LockQueue queue = LockQueue.of(children(parent));
                int position = queue.position(ourName);
                if (position == 0) {
                    Grant grant = new Grant(name, OwnerTokens.newToken(), ours.czxid(), ours);
                    held.add(ours, grant);
                    ours = null; // handed over to the grant
                    return grant;
                }
                if (position < 0) {
                    ours = null; // our node is gone (the session expired while we waited): queue again
                    continue;
                }
                long left = deadline - System.nanoTime();
                if (timeoutNanos >= 0 && left <= 0) {
                    return null;
                }
                wakeup.reset();
                if (watch(ZKPaths.makePath(parent, queue.predecessorOf(position)), wakeup)) {
                    wakeup.await(timeoutNanos < 0 ? RECHECK_NANOS : Math.min(left, RECHECK_NANOS));
                }
                ensureOpen();
            }
        } finally {
            waiting.remove(wakeup);
            if (ours != null) {
                deleteLeftover(ours.path());
            }
        }
    }

    /**
     * Creates our contender node. A missing parent is created on demand as a CONTAINER node (the server deletes it
     * once it has been emptied), and the create is retried: also when the server deletes an emptied parent between
     * its creation and ours.
     */
    private LockNode create(String parent) throws InterruptedException {
        String path = ZKPaths.makePath(parent, LockQueue.NODE_PREFIX);
        for (int attempt = 1; ; attempt++) {
            Stat stat = new Stat();
            try {
                CreateBuilder builder = client.create();
                createHook.accept(builder);
                String created = builder.storingStatIn(stat).withProtection()
                        .withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(path, ownerData);
                if (stat.getCzxid() == 0) {
                    // the reply was lost and Curator found our node again by its protected id: read its stat
                    stat = client.checkExists().forPath(created);
                    if (stat == null) {
                        continue;
                    }
                }
                return new LockNode(created, stat.getCzxid(), stat.getEphemeralOwner());
            } catch (KeeperException.NoNodeException e) {
                if (attempt >= CREATE_ATTEMPTS) {
                    throw errors.translate(e, "creating a node under " + parent);
                }
                createParent(parent);
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                throw errors.translate(e, "creating a node under " + parent);
            }
        }
    }

    /** Creates a lock's CONTAINER parent (and the root above it, if missing); fine if another client did first. */
    private void createParent(String parent) throws InterruptedException {
        try {
            client.create().creatingParentContainersIfNeeded().withMode(CreateMode.CONTAINER).forPath(parent);
        } catch (KeeperException.NodeExistsException raced) {
            // another contender created it first
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            throw errors.translate(e, "creating " + parent);
        }
    }

    private List<String> children(String parent) throws InterruptedException {
        try {
            return client.getChildren().forPath(parent);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            throw errors.translate(e, "listing " + parent);
        }
    }

    /** Watches {@code predecessor}; false if it is already gone (re-check at once). */
    private boolean watch(String predecessor, Wakeup wakeup) throws InterruptedException {
        try {
            client.getData().usingWatcher(wakeup).forPath(predecessor);
            return true;
        } catch (KeeperException.NoNodeException e) {
            return false;
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            throw errors.translate(e, "watching " + predecessor);
        }
    }

    /** Deletes a node we queued with but will not hold (timeout, interrupt, failure); Curator retries if needed. */
    private void deleteLeftover(String path) {
        boolean interrupted = Thread.interrupted();
        try {
            client.delete().guaranteed().forPath(path);
        } catch (KeeperException.NoNodeException gone) {
            // already gone with its session
        } catch (Exception e) {
            LOG.log(Level.DEBUG, "could not delete " + path + " now; Curator keeps retrying (guaranteed delete), "
                    + "and it goes with the session at the latest", e);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean release(Grant grant) {
        LockNode node = (LockNode) grant.handle();
        held.remove(node.path());
        try {
            client.delete().guaranteed().forPath(node.path());
            return true;
        } catch (KeeperException.NoNodeException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw errors.translate(new KeeperException.OperationTimeoutException(), "releasing " + grant.name()
                    + " (interrupted; the delete is retried in the background)");
        } catch (Exception e) {
            throw errors.translate(e, "releasing " + grant.name());
        }
    }

    @Override
    public Set<Grant> renew(List<Renewal> renewals) {
        Set<Grant> lost = new HashSet<>();
        for (Renewal renewal : renewals) {
            LockNode node = (LockNode) renewal.grant().handle();
            if (!held.contains(node.path()) || !stillOurs(node)) {
                lost.add(renewal.grant());
            }
        }
        return lost;
    }

    private boolean stillOurs(LockNode node) {
        try {
            Stat stat = client.checkExists().forPath(node.path());
            return stat != null && stat.getEphemeralOwner() == node.sessionId();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw errors.translate(new KeeperException.OperationTimeoutException(), "checking " + node.path());
        } catch (Exception e) {
            throw errors.translate(e, "checking " + node.path());
        }
    }

    @Override
    public LockAdmin admin() {
        return new ZooKeeperAdmin(client, errors);
    }

    private void wakeWaiters() {
        waiting.forEach(Wakeup::wake);
    }

    private void ensureOpen() {
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
        sessionListener.close();
        held.close();
        client.close();
    }
}
