package io.distlock.bench.redis;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.HostPort;
import io.distlock.bench.core.Held;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.Role;
import java.time.Duration;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@code RLock} (or {@code RFencedLock}, its lock with fencing tokens) with Redisson's default settings,
 * as users get it. Each client is one {@link RedissonClient}; locks are released by the thread that took them,
 * as Redisson requires.
 */
public final class RedissonContender extends Contender {

    private final HostPort server;
    private final boolean fenced;

    /** A contender for Redis at {@code server}; {@code fenced} picks {@code RFencedLock} over {@code RLock}. */
    public RedissonContender(HostPort server, boolean fenced) {
        super(fenced ? "Redisson RFencedLock" : "Redisson RLock", fenced ? Role.REDISSON_FENCED : Role.REDISSON);
        this.server = server;
        this.fenced = fenced;
    }

    @Override
    public boolean canHoldWithRenewal() {
        return !fenced;
    }

    @Override
    protected LockClient openClient() {
        return new Client(Redisson.create(config()), fenced);
    }

    @Override
    public LockClient openRenewingClient(Duration leaseTime) {
        Config config = config();
        config.setLockWatchdogTimeout(leaseTime.toMillis());
        return new Client(Redisson.create(config), fenced);
    }

    private Config config() {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://" + server);
        return config;
    }

    /** One Redisson client. */
    private static final class Client implements LockClient {
        private final RedissonClient redisson;
        private final boolean fenced;

        Client(RedissonClient redisson, boolean fenced) {
            this.redisson = redisson;
            this.fenced = fenced;
        }

        @Override
        public Held acquire(String name) {
            RLock lock = fenced ? redisson.getFencedLock(name) : redisson.getLock(name);
            lock.lock();
            return lock::unlock;
        }

        @Override
        public void close() {
            redisson.shutdown();
        }
    }
}
