package io.distlock.shedlock;

import io.distlock.Lease;
import java.util.Optional;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * One ShedLock lock over a distlock {@link Lease}. Unlock keeps the lease until {@code lockAtLeastFor} has passed
 * since acquisition (or since the last extension); extending renews the lease for the new {@code lockAtMostFor}.
 */
final class DistlockSimpleLock extends AbstractSimpleLock {

    private final DistlockLockProvider provider;
    private final String name;
    private final Lease lease;
    private final long sinceNanos;

    DistlockSimpleLock(DistlockLockProvider provider, String name, Lease lease, LockConfiguration config,
            long sinceNanos) {
        super(config);
        this.provider = provider;
        this.name = name;
        this.lease = lease;
        this.sinceNanos = sinceNanos;
    }

    @Override
    protected void doUnlock() {
        long keep = lockConfiguration.getLockAtLeastFor().toNanos() - (System.nanoTime() - sinceNanos);
        provider.releaseAfter(name, lease, keep);
    }

    @Override
    protected Optional<SimpleLock> doExtend(LockConfiguration newConfig) {
        long now = System.nanoTime();
        if (!provider.extend(lease, newConfig.getLockAtMostFor())) {
            return Optional.empty();
        }
        return Optional.of(new DistlockSimpleLock(provider, name, lease, newConfig, now));
    }

    @Override
    public String toString() {
        return "DistlockSimpleLock[" + name + ", fence=" + lease.fencingToken() + "]";
    }
}
