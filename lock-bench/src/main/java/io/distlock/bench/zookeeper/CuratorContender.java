package io.distlock.bench.zookeeper;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.HostPort;
import io.distlock.bench.core.Held;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.Role;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;

/**
 * Curator's {@code InterProcessMutex} recipe. Each client is one {@link CuratorFramework}; one mutex object per lock
 * name per client is shared by that client's threads, as Curator intends (it is reentrant per thread).
 */
public final class CuratorContender extends Contender {

    static final String ROOT = "/bench-curator";
    private final HostPort server;

    /** A contender for ZooKeeper at {@code server}. */
    public CuratorContender(HostPort server) {
        super("Curator InterProcessMutex", Role.CURATOR);
        this.server = server;
    }

    @Override
    public boolean canHoldWithRenewal() {
        return true;
    }

    @Override
    protected LockClient openClient() throws InterruptedException {
        return new Client(Zk.connect(server));
    }

    @Override
    public LockClient openRenewingClient(Duration leaseTime) throws InterruptedException {
        // ZooKeeper locks live as long as the session: nothing to renew but the session's heartbeat
        return openClient();
    }

    /** One Curator client. */
    private static final class Client implements LockClient {
        private final CuratorFramework curator;
        private final ConcurrentHashMap<String, InterProcessMutex> mutexes = new ConcurrentHashMap<>();

        Client(CuratorFramework curator) {
            this.curator = curator;
        }

        @Override
        public Held acquire(String name) throws Exception {
            InterProcessMutex mutex = mutexes.computeIfAbsent(name,
                    n -> new InterProcessMutex(curator, ROOT + "/" + Zk.nodeName(n)));
            mutex.acquire();
            return mutex::release;
        }

        @Override
        public void close() {
            curator.close();
        }
    }
}
