package io.distlock.bench.zookeeper;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.HostPort;
import io.distlock.bench.core.Held;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.Role;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * The raw limit for ZooKeeper: the three calls of the classic lock recipe sent by hand on the plain
 * {@link ZooKeeper} handle: create an ephemeral-sequential node under the lock's node, {@code getChildren} to see
 * it is the lowest, and delete it to release. No waiting (uncontended scenarios only).
 */
public final class RawZooKeeperContender extends Contender {

    static final String ROOT = "/bench-raw";
    private final HostPort server;

    /** A raw client for ZooKeeper at {@code server}. */
    public RawZooKeeperContender(HostPort server) {
        super("raw create-seq + getChildren + delete", Role.RAW);
        this.server = server;
    }

    @Override
    protected LockClient openClient() throws Exception {
        CuratorFramework curator = Zk.connect(server);
        try {
            curator.createContainers(ROOT);
        } catch (Exception e) {
            curator.close();
            throw e;
        }
        return new Client(curator);
    }

    /** One ZooKeeper session. */
    private static final class Client implements LockClient {
        private final CuratorFramework curator;
        private final Set<String> parents = ConcurrentHashMap.newKeySet();

        Client(CuratorFramework curator) {
            this.curator = curator;
        }

        @Override
        public Held acquire(String name) throws Exception {
            ZooKeeper zk = curator.getZookeeperClient().getZooKeeper();
            String parent = ROOT + "/" + Zk.nodeName(name);
            if (parents.add(parent)) {
                try {
                    zk.create(parent, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                } catch (KeeperException.NodeExistsException alreadyThere) {
                    // another run made it
                }
            }
            String path = zk.create(parent + "/lock-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.EPHEMERAL_SEQUENTIAL);
            List<String> children = zk.getChildren(parent, false);
            String mine = path.substring(parent.length() + 1);
            for (String child : children) {
                if (child.compareTo(mine) < 0) {
                    zk.delete(path, -1);
                    throw new IllegalStateException("raw acquire of '" + name
                            + "' found it held; the raw limit never waits");
                }
            }
            return () -> zk.delete(path, -1);
        }

        @Override
        public void close() {
            curator.close();
        }
    }
}
