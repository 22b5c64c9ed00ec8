package io.distlock.bench.zookeeper;

import io.distlock.bench.core.HostPort;
import io.distlock.bench.core.Held;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.Role;
import io.distlock.bench.core.SemaphoreContender;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;

/**
 * Curator's {@code InterProcessSemaphoreV2} recipe. Each client is one {@link CuratorFramework}; one semaphore object
 * per name per client is shared by that client's threads (its permits live as long as the session).
 */
public final class CuratorSemaphoreContender extends SemaphoreContender {

    /** The name in the report. */
    public static final String NAME = "Curator InterProcessSemaphoreV2";
    static final String ROOT = "/bench-curator-semaphore";

    private final HostPort server;

    /** A contender for ZooKeeper at {@code server}, {@code permits} permits per name. */
    public CuratorSemaphoreContender(HostPort server, int permits) {
        super(NAME, Role.CURATOR_SEMAPHORE, permits);
        this.server = server;
    }

    @Override
    protected LockClient openClient() throws InterruptedException {
        return new Client(Zk.connect(server), permits());
    }

    /** One Curator client. */
    private static final class Client implements LockClient {
        private final CuratorFramework curator;
        private final int permits;
        private final ConcurrentHashMap<String, InterProcessSemaphoreV2> semaphores = new ConcurrentHashMap<>();

        Client(CuratorFramework curator, int permits) {
            this.curator = curator;
            this.permits = permits;
        }

        @Override
        public Held acquire(String name) throws Exception {
            InterProcessSemaphoreV2 semaphore = semaphores.computeIfAbsent(name,
                    n -> new InterProcessSemaphoreV2(curator, ROOT + "/" + Zk.nodeName(n), permits));
            Lease lease = semaphore.acquire();
            return () -> semaphore.returnLease(lease);
        }

        @Override
        public void close() {
            curator.close();
        }
    }
}
