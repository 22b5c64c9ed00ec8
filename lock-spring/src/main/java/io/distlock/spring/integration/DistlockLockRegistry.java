package io.distlock.spring.integration;

import io.distlock.Arguments;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.integration.support.locks.ExpirableLockRegistry;
import org.springframework.integration.support.locks.RenewableLockRegistry;

/**
 * A Spring Integration lock registry over a distlock {@link LockStore}: a drop-in for {@code RedisLockRegistry},
 * {@code JdbcLockRegistry} or {@code ZookeeperLockRegistry}, with store-clock expiry, background renewal while a
 * lock is held, and a fencing token for every holder ({@link DistlockLock#currentLease()}).
 *
 * <p>Keys must be strings; the store's lock name is {@code prefix + key}. Locks are reentrant per thread, as
 * Spring Integration's are, and report a lock lost while held as they do ({@link DistlockLock}). Renewal is the
 * store's own (every third of the lease time while held); the renew methods renew on demand.
 */
public final class DistlockLockRegistry
        implements ExpirableLockRegistry<DistlockLock>, RenewableLockRegistry<DistlockLock> {

    private final LockStore store;
    private final String prefix;
    private final ConcurrentHashMap<String, DistlockLock> locks = new ConcurrentHashMap<>();

    /** A registry whose lock names are the keys themselves. */
    public DistlockLockRegistry(LockStore store) {
        this(store, "");
    }

    /**
     * A registry whose lock names are {@code prefix + key}, Spring Integration's "registry key".
     *
     * @throws NullPointerException if an argument is null
     */
    public DistlockLockRegistry(LockStore store, String prefix) {
        this.store = Objects.requireNonNull(store, "store must not be null");
        this.prefix = Objects.requireNonNull(prefix, "prefix must not be null");
    }

    /**
     * The lock for {@code lockKey}; the same object for equal keys until it is expired unused.
     *
     * @throws IllegalArgumentException if {@code lockKey} is not a {@link String}
     */
    @Override
    public DistlockLock obtain(Object lockKey) {
        if (!(lockKey instanceof String key)) {
            throw new IllegalArgumentException("lock key must be a String, got "
                    + (lockKey == null ? "null" : lockKey.getClass().getName()));
        }
        return locks.computeIfAbsent(key, k -> new DistlockLock(store, prefix + k));
    }

    /**
     * Forgets locks that no thread of this process holds or is acquiring (waiting for it counts), and that were last
     * used more than {@code age} milliseconds ago, as Spring Integration's registries keep locks held or waited for.
     */
    @Override
    public void expireUnusedOlderThan(long age) {
        long now = System.nanoTime();
        long ageNanos = Duration.ofMillis(age).toNanos();
        locks.values().removeIf(lock -> !lock.isInUse() && now - lock.lastUsedNanos() > ageNanos);
    }

    /**
     * Renews the calling thread's lease of {@code lockKey} for its lease time.
     *
     * @throws IllegalStateException if the calling thread does not hold it, or the lease was lost
     */
    @Override
    public void renewLock(Object lockKey) {
        DistlockLock lock = held(lockKey);
        lock.renew(lock.leaseTime());
    }

    /**
     * Renews the calling thread's lease of {@code lockKey} for {@code timeToLive} from now.
     *
     * @throws IllegalStateException if the calling thread does not hold it, or the lease was lost
     */
    @Override
    public void renewLock(Object lockKey, Duration timeToLive) {
        held(lockKey).renew(timeToLive);
    }

    private DistlockLock held(Object lockKey) {
        DistlockLock lock = lockKey instanceof String key ? locks.get(key) : null;
        if (lock == null) {
            throw new IllegalStateException("lock " + Arguments.quoted(String.valueOf(lockKey))
                    + " was not obtained from this registry");
        }
        return lock;
    }

    @Override
    public String toString() {
        return "DistlockLockRegistry[" + store + ", prefix=" + prefix + ", " + locks.size() + " locks]";
    }
}
