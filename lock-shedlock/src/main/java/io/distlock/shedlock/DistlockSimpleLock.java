package io.distlock.shedlock;

import java.util.Optional;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * One ShedLock lock over a distlock lease. Unlock keeps the lease until {@code lockAtLeastFor} has passed since
 * acquisition (or since the last extension); extending renews the lease for the new {@code lockAtMostFor}.
 */
final class DistlockSimpleLock extends AbstractSimpleLock {

    private final DistlockLockProvider.Held hold;
    private final long sinceNanos;

    DistlockSimpleLock(DistlockLockProvider.Held hold, LockConfiguration config, long sinceNanos) {
        super(config);
        this.hold = hold;
        this.sinceNanos = sinceNanos;
    }

    @Override
    protected void doUnlock() {
        hold.unlockAfter(lockConfiguration.getLockAtLeastFor().toNanos() - (System.nanoTime() - sinceNanos));
    }

    @Override
    protected Optional<SimpleLock> doExtend(LockConfiguration newConfig) {
        long now = System.nanoTime();
        if (!hold.extend(newConfig.getLockAtMostFor())) {
            return Optional.empty();
        }
        return Optional.of(new DistlockSimpleLock(hold, newConfig, now));
    }

    @Override
    public String toString() {
        return "DistlockSimpleLock[" + hold.name + ", fence=" + hold.lease.fencingToken() + "]";
    }
}
