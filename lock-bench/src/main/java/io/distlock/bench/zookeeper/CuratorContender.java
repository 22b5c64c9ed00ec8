package io.distlock.bench.zookeeper;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.HostPort;
import io.distlock.bench.core.Held;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.Role;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.atomic.AtomicValue;
import org.apache.curator.framework.recipes.atomic.DistributedAtomicLong;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryNTimes;

/**
 * Curator's {@code InterProcessMutex} recipe, alone or with a fencing token taken the way a Curator user would:
 * once the mutex is held, {@code DistributedAtomicLong.increment()} on a counter node of that lock (a read of the
 * node and a write conditional on the version read). Only the mutex holder increments, so the conditional write
 * never loses a race and the token rises with every acquisition. Each client is one {@link CuratorFramework}; one
 * mutex (and counter) object per lock name per client is shared by that client's threads, as Curator intends (the
 * mutex is reentrant per thread).
 */
public final class CuratorContender extends Contender {

    /** The name in the report of the mutex with a fencing token. */
    public static final String FENCED_NAME = "Curator InterProcessMutex + token";
    static final String ROOT = "/bench-curator";
    static final String TOKENS = "/bench-curator-tokens";
    private final HostPort server;
    private final boolean fenced;

    /** The mutex alone, for ZooKeeper at {@code server}. */
    public CuratorContender(HostPort server) {
        this(server, false);
    }

    /** A contender for ZooKeeper at {@code server}; {@code fenced} also takes a token after each acquisition. */
    public CuratorContender(HostPort server, boolean fenced) {
        super(fenced ? FENCED_NAME : "Curator InterProcessMutex", fenced ? Role.CURATOR_FENCED : Role.CURATOR);
        this.server = server;
        this.fenced = fenced;
    }

    @Override
    public boolean canHoldWithRenewal() {
        return !fenced;
    }

    @Override
    protected LockClient openClient() throws InterruptedException {
        return new Client(Zk.connect(server), fenced);
    }

    @Override
    public LockClient openRenewingClient(Duration leaseTime) throws Exception {
        if (fenced) {
            return super.openRenewingClient(leaseTime);
        }
        // ZooKeeper locks live as long as the session: nothing to renew but the session's heartbeat
        return openClient();
    }

    /** One Curator client. */
    private static final class Client implements LockClient {
        private final CuratorFramework curator;
        private final boolean fenced;
        private final ConcurrentHashMap<String, InterProcessMutex> mutexes = new ConcurrentHashMap<>();
        private final ConcurrentHashMap<String, DistributedAtomicLong> tokens = new ConcurrentHashMap<>();

        Client(CuratorFramework curator, boolean fenced) {
            this.curator = curator;
            this.fenced = fenced;
        }

        @Override
        public Held acquire(String name) throws Exception {
            InterProcessMutex mutex = mutexes.computeIfAbsent(name,
                    n -> new InterProcessMutex(curator, ROOT + "/" + Zk.nodeName(n)));
            mutex.acquire();
            if (fenced) {
                try {
                    token(name);
                } catch (Exception e) {
                    mutex.release();
                    throw e;
                }
            }
            return mutex::release;
        }

        /** The next fencing token of {@code name}: the holder is the only writer, so one try always wins. */
        private long token(String name) throws Exception {
            DistributedAtomicLong counter = tokens.computeIfAbsent(name,
                    n -> new DistributedAtomicLong(curator, TOKENS + "/" + Zk.nodeName(n), new RetryNTimes(0, 0)));
            AtomicValue<Long> next = counter.increment();
            if (!next.succeeded()) {
                throw new IllegalStateException("the fencing token of '" + name + "' moved while its mutex was held:"
                        + " another writer than the holder");
            }
            return next.postValue();
        }

        @Override
        public void close() {
            curator.close();
        }
    }
}
