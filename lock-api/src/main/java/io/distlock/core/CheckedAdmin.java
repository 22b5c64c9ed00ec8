package io.distlock.core;

import io.distlock.Arguments;
import io.distlock.LockAdmin;
import io.distlock.LockInfo;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * A store's admin view with the names it breaks checked as a lock's are: a name the API refuses could be encoded as
 * another name (an unpaired surrogate becomes {@code '?'} in UTF-8), and a force-release of it would free that other
 * name's lock.
 */
final class CheckedAdmin implements LockAdmin {

    private final LockAdmin admin;
    private final IntSupplier maxNameLength;

    CheckedAdmin(LockAdmin admin, IntSupplier maxNameLength) {
        this.admin = admin;
        this.maxNameLength = maxNameLength;
    }

    @Override
    public List<LockInfo> list(String prefix, int limit) {
        return admin.list(prefix, limit);
    }

    @Override
    public List<LockInfo> listPermits(String prefix, int limit) {
        return admin.listPermits(prefix, limit);
    }

    @Override
    public boolean listsPermits() {
        return admin.listsPermits();
    }

    @Override
    public boolean forceRelease(String name) {
        return admin.forceRelease(Arguments.requireLockName(name, maxNameLength.getAsInt()));
    }

    @Override
    public boolean forceRelease(String name, long fencingToken) {
        return admin.forceRelease(Arguments.requireLockName(name, maxNameLength.getAsInt()), fencingToken);
    }
}
