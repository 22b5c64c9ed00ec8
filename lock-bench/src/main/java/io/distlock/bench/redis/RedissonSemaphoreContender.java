package io.distlock.bench.redis;

import io.distlock.bench.core.HostPort;
import io.distlock.bench.core.Held;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.Role;
import io.distlock.bench.core.SemaphoreContender;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@code RPermitExpirableSemaphore}, its semaphore whose permits have leases (the one comparable with
 * distlock's permits), with Redisson's default settings. Each permit is taken with a 30 s lease, distlock's default
 * lease time (Redisson does not renew permits). Each client is one {@link RedissonClient}; the limit of a name is
 * set once per client with {@code trySetPermits}.
 */
public final class RedissonSemaphoreContender extends SemaphoreContender {

    /** The name in the report. */
    public static final String NAME = "Redisson RPermitExpirableSemaphore";
    private static final long LEASE_SECONDS = 30;

    private final HostPort server;

    /** A contender for Redis at {@code server}, {@code permits} permits per name. */
    public RedissonSemaphoreContender(HostPort server, int permits) {
        super(NAME, Role.REDISSON_SEMAPHORE, permits);
        this.server = server;
    }

    @Override
    protected LockClient openClient() {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://" + server);
        return new Client(Redisson.create(config), permits());
    }

    /** One Redisson client. */
    private static final class Client implements LockClient {
        private final RedissonClient redisson;
        private final int permits;
        private final Set<String> limited = ConcurrentHashMap.newKeySet();

        Client(RedissonClient redisson, int permits) {
            this.redisson = redisson;
            this.permits = permits;
        }

        @Override
        public Held acquire(String name) throws InterruptedException {
            RPermitExpirableSemaphore semaphore = redisson.getPermitExpirableSemaphore(name);
            if (limited.add(name)) {
                semaphore.trySetPermits(permits);
            }
            String permit = semaphore.acquire(LEASE_SECONDS, TimeUnit.SECONDS);
            return () -> semaphore.release(permit);
        }

        @Override
        public void close() {
            redisson.shutdown();
        }
    }
}
