package io.distlock.tck;

import io.distlock.DistributedLock;
import io.distlock.DistributedSemaphore;
import io.distlock.Features;
import io.distlock.LockAdmin;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.spi.LockBackend;
import io.distlock.tck.fixture.BackendStores;

/**
 * A broken lock store for the kit's self-check (§23): the shared core, except that its close shuts the backend first,
 * under the acquisitions still in flight, and only then the core: a grant whose answer was on its way is lost with
 * the backend's connections, and the core's release of it fails, so the lock stays held by nobody for its lease.
 */
final class AbandoningCloseStore implements LockStore {

    private final LockStore delegate;

    /** {@code delegate} must be opened by {@link BackendStores}: its close shuts that backend first. */
    AbandoningCloseStore(LockStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public DistributedLock lock(String name, LockOptions options) {
        return delegate.lock(name, options);
    }

    @Override
    public DistributedSemaphore semaphore(String name, int permits, LockOptions options) {
        return delegate.semaphore(name, permits, options);
    }

    @Override
    public Features features() {
        return delegate.features();
    }

    @Override
    public LockAdmin admin() {
        return delegate.admin();
    }

    @Override
    public void close() {
        BackendStores.backend(delegate, LockBackend.class).close();
        delegate.close();
    }
}
