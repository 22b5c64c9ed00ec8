package io.distlock.tck;

import io.distlock.LockAdmin;
import io.distlock.LockInfo;
import java.util.List;

/**
 * A store's admin view with its locks only: lists and force-releases them, but lists no permits (the default
 * {@link LockAdmin#listPermits} throws). The view of a wrapper that hides the store's semaphores, so that it says
 * what its features say; a broken view overrides what it gets wrong.
 */
class LocksOnlyAdmin implements LockAdmin {

    protected final LockAdmin real;

    LocksOnlyAdmin(LockAdmin real) {
        this.real = real;
    }

    @Override
    public List<LockInfo> list(String prefix, int limit) {
        return real.list(prefix, limit);
    }

    @Override
    public boolean forceRelease(String name) {
        return real.forceRelease(name);
    }

    @Override
    public boolean forceRelease(String name, long fencingToken) {
        return real.forceRelease(name, fencingToken);
    }
}
