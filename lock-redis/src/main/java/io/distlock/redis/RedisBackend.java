package io.distlock.redis;

import io.distlock.spi.Attempt;
import io.distlock.spi.Grant;
import io.distlock.spi.LeaseModel;
import io.distlock.spi.LockAdmin;
import io.distlock.spi.OwnerTokens;
import io.distlock.spi.PermitBackend;
import io.distlock.spi.PollingLockBackend;
import io.distlock.spi.Renewal;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import redis.clients.jedis.UnifiedJedis;

/**
 * The store operations on one Redis keyspace (a single server, a Sentinel-managed master, or a Cluster): acquire is
 * one {@code EVALSHA} of {@link RedisScripts#ACQUIRE}; release is a compare-and-delete that publishes the release;
 * renewal sends every due lease in a few batched scripts. Waiters sleep until a release message from the store's
 * {@link ReleaseSubscriber} or the holder's remaining TTL.
 */
final class RedisBackend extends PollingLockBackend implements PermitBackend {

    /** The longest lock name this store accepts. */
    static final int MAX_NAME_LENGTH = 1024;

    private final UnifiedJedis client;
    private final RedisKeys keys;
    private final String store;
    private final RedisOptions options;
    private final BatchRenewer renewer;
    private final ReleaseSubscriber subscriber;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final RedisPermits permits;

    /**
     * A backend over {@code client}.
     *
     * @param slotted whether keys of different locks may live on different nodes (Cluster): renew batches per slot
     */
    RedisBackend(UnifiedJedis client, RedisOptions options, String store, boolean slotted) {
        this.client = client;
        this.options = options;
        this.store = store;
        this.keys = new RedisKeys(options.keyPrefix());
        this.renewer = new BatchRenewer(client, keys, store, slotted);
        this.subscriber = new ReleaseSubscriber(client, keys, signals(), store).start();
        this.permits = new RedisPermits(client, keys, options, store, signals());
    }

    @Override
    public LeaseModel leaseModel() {
        return LeaseModel.TIME;
    }

    @Override
    public int maxNameLength() {
        return MAX_NAME_LENGTH;
    }

    @Override
    protected Attempt attempt(String name, Duration leaseTime) {
        ensureOpen();
        checkLease(leaseTime);
        String token = OwnerTokens.newToken();
        String value = OwnerValue.of(token);
        List<String> keyList = options.restartGuard()
                ? List.of(keys.lock(name), keys.fence(name), keys.guard())
                : List.of(keys.lock(name), keys.fence(name));
        String guardMs = options.restartGuard() ? Long.toString(options.maxLeaseTime().toMillis()) : "0";
        Object reply = RedisErrors.call(store, "acquire lock '" + name + "'", () -> RedisScripts.ACQUIRE.run(client,
                keyList, List.of(value, Long.toString(leaseTime.toMillis()), guardMs)));
        List<?> result = (List<?>) reply;
        long code = (Long) result.get(0);
        long number = (Long) result.get(1);
        if (code == 1) {
            return Attempt.granted(new Grant(name, token, number, value));
        }
        return Attempt.held(number >= 0 ? TimeUnit.MILLISECONDS.toNanos(number) : -1);
    }

    private void checkLease(Duration leaseTime) {
        if (options.restartGuard() && leaseTime.compareTo(options.maxLeaseTime()) > 0) {
            throw new IllegalArgumentException("lease time " + leaseTime + " is longer than maxLeaseTime "
                    + options.maxLeaseTime() + " of redis store " + store
                    + ": with restartGuard=true no lease may outlast the guard's window");
        }
    }

    /**
     * While the release subscription is up, a waiter sleeps until the holder's TTL ends (a release message wakes it
     * sooner); when it is down, or the TTL is unknown, it polls with the default backoff.
     */
    @Override
    protected long pollDelayNanos(int failures, long holderTtlNanos) {
        if (subscriber.isSubscribed() && holderTtlNanos >= 0) {
            return holderTtlNanos + TimeUnit.MILLISECONDS.toNanos(1);
        }
        return super.pollDelayNanos(failures, holderTtlNanos);
    }

    @Override
    public boolean release(Grant grant) {
        String name = grant.name();
        Object reply = RedisErrors.call(store, "release lock '" + name + "'", () -> RedisScripts.RELEASE.run(client,
                List.of(keys.lock(name)), List.of((String) grant.handle(), keys.channel(name), name)));
        signals().signal(name);
        return ((Long) reply) == 1L;
    }

    @Override
    public Set<Grant> renew(List<Renewal> renewals) {
        ensureOpen();
        for (Renewal r : renewals) {
            checkLease(r.leaseTime());
        }
        return renewer.renew(renewals);
    }

    // ---- semaphores: RedisPermits, in keys of their own ----------------------------------------------------------

    @Override
    public int maxPermits() {
        return RedisPermits.MAX_PERMITS;
    }

    @Override
    public Grant acquirePermit(String name, int limit, Duration leaseTime, long timeoutNanos)
            throws InterruptedException {
        ensureOpen();
        checkLease(leaseTime);
        return permits.acquire(name, limit, leaseTime, timeoutNanos);
    }

    @Override
    public boolean releasePermit(Grant grant) {
        return permits.release(grant);
    }

    @Override
    public Set<Grant> renewPermits(List<Renewal> renewals) {
        ensureOpen();
        renewals.forEach(r -> checkLease(r.leaseTime()));
        return permits.renew(renewals);
    }

    @Override
    public int heldPermits(String name) {
        ensureOpen();
        return permits.held(name);
    }

    @Override
    public LockAdmin admin() {
        return new RedisAdmin(client, keys, store);
    }

    /** Exposed for tests: how many round trips renewals have taken so far. */
    long renewalRoundTrips() {
        return renewer.roundTrips();
    }

    /** Whether the release subscription is up (for tests). */
    boolean isSubscribed() {
        return subscriber.isSubscribed();
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("redis store " + store + " is closed");
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            subscriber.close();
            signals().signalAll();
            client.close();
        }
    }
}
