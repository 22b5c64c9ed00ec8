package io.distlock.zookeeper;

import io.distlock.LockAdmin;
import io.distlock.LockInfo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Operator view of the ZooKeeper store: a lock is held when its parent node has a contender; the holder is the lowest
 * contender, its fencing token the last one stamped into the parent ({@link FenceFloor}; the holder before it while a
 * new holder is still writing its own), its owner the process description stored in the node. Leases are
 * session-bound, so there is no time left to show. Force-release deletes the holder's node; the next contender in
 * line takes over with a higher token. Every read starts with a {@code sync()}: ZooKeeper promises a session only its
 * own writes, so a server that follows the leader may not yet have applied a lock just taken through another server;
 * the sync makes it apply everything the leader committed before.
 */
final class ZooKeeperAdmin implements LockAdmin {

    private final ZooKeeperBackend backend;
    private final CuratorFramework client;
    private final ZooKeeperErrors errors;

    ZooKeeperAdmin(ZooKeeperBackend backend, ZooKeeperErrors errors) {
        this.backend = backend;
        this.client = backend.client;
        this.errors = errors;
    }

    @Override
    public List<LockInfo> list(String prefix, int limit) {
        String wanted = prefix == null ? "" : prefix;
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive, got " + limit);
        }
        TreeMap<String, String> parents = new TreeMap<>();
        List<String> nodes = call(() -> {
            backend.sync(ZooKeeperBackend.ROOT);
            return childrenOrEmpty(ZooKeeperBackend.ROOT);
        }, "listing locks");
        for (String node : nodes) {
            String name;
            try {
                name = NodeNames.decode(node);
            } catch (IllegalArgumentException foreign) {
                continue; // not a node distlock made
            }
            if (name.startsWith(wanted)) {
                parents.put(name, ZKPaths.makePath(ZooKeeperBackend.ROOT, node));
            }
        }
        List<LockInfo> held = new ArrayList<>();
        for (var entry : parents.entrySet()) {
            if (held.size() >= limit) {
                break;
            }
            LockInfo info = call(() -> holderOf(entry.getKey(), entry.getValue()), "reading " + entry.getValue());
            if (info != null) {
                held.add(info);
            }
        }
        return held;
    }

    private LockInfo holderOf(String name, String parent) throws Exception {
        while (true) {
            String holder = LockQueue.of(childrenOrEmpty(parent)).holder();
            if (holder == null) {
                return null;
            }
            Stat stat = new Stat();
            try {
                byte[] data = client.getData().forPath(ZKPaths.makePath(parent, holder));
                String owner = data == null ? "unknown" : new String(data, StandardCharsets.UTF_8);
                byte[] fence = client.getData().storingStatIn(stat).forPath(parent);
                return new LockInfo(name, FenceFloor.last(fence, stat.getMtime()), null, owner);
            } catch (KeeperException.NoNodeException released) {
                // released meanwhile: look again
            }
        }
    }

    @Override
    public boolean forceRelease(String name) {
        String parent = ZooKeeperBackend.parentPath(name);
        return call(() -> {
            backend.sync(parent);
            String holder = LockQueue.of(childrenOrEmpty(parent)).holder();
            if (holder == null) {
                return false;
            }
            try {
                client.delete().forPath(ZKPaths.makePath(parent, holder));
                return true;
            } catch (KeeperException.NoNodeException released) {
                return false;
            }
        }, "force-releasing " + name);
    }

    /**
     * Deletes the holder's node only if its fencing token is the one the operator saw. The token is the one the
     * holder stamped into the parent ({@link FenceFloor}, as {@link #list} shows it), not a node's czxid. A grant
     * stamps the parent and writes its own node in one transaction ({@link ZooKeeperBackend#nextToken}), so the stamp
     * is the holder's own only if the parent and the holder's node were last written by the same transaction (equal
     * {@code mzxid}); any other stamp (an earlier holder's, the holder having come first but not stamped yet, also when
     * that earlier holder stamped after the holder queued) is refused. The delete is one transaction with a check of
     * the parent's version and the node's, so a grant stamping in between makes it fail rather than break the new
     * holder.
     */
    @Override
    public boolean forceRelease(String name, long fencingToken) {
        String parent = ZooKeeperBackend.parentPath(name);
        return call(() -> {
            backend.sync(parent);
            String holder = LockQueue.of(childrenOrEmpty(parent)).holder();
            if (holder == null) {
                return false;
            }
            String path = ZKPaths.makePath(parent, holder);
            try {
                Stat node = new Stat();
                client.getData().storingStatIn(node).forPath(path);
                Stat fence = new Stat();
                byte[] stamped = client.getData().storingStatIn(fence).forPath(parent);
                if (fence.getMzxid() != node.getMzxid() || FenceFloor.last(stamped, fence.getMtime()) != fencingToken) {
                    return false;
                }
                client.transaction().forOperations(
                        client.transactionOp().check().withVersion(fence.getVersion()).forPath(parent),
                        client.transactionOp().delete().withVersion(node.getVersion()).forPath(path));
                return true;
            } catch (KeeperException.NoNodeException | KeeperException.BadVersionException changed) {
                return false;
            }
        }, "force-releasing " + name);
    }

    private List<String> childrenOrEmpty(String path) throws Exception {
        try {
            return client.getChildren().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        }
    }

    private <T> T call(Step<T> step, String what) {
        try {
            return step.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw errors.translate(new KeeperException.OperationTimeoutException(), what + " (interrupted)");
        } catch (Exception e) {
            throw errors.translate(e, what);
        }
    }

    /** One admin step against the store. */
    @FunctionalInterface
    private interface Step<T> {
        T run() throws Exception;
    }
}
