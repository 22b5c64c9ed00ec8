package io.distlock.core;

import io.distlock.Arguments;
import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.spi.Wait;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.Lock;

/** A named lock of a {@link BackendLockStore}: a name and options, no state of its own beyond the Lock view. */
final class CoreLock implements DistributedLock {

    private static final VarHandle ADAPTER = Hold.varHandle(MethodHandles.lookup(), "adapter", Lock.class);

    private final BackendLockStore store;
    private final String name;
    private final LockOptions options;
    /** Made by the first {@link #asLock()} (most locks are only acquired); through {@link #ADAPTER}. */
    private volatile Lock adapter;

    CoreLock(BackendLockStore store, String name, LockOptions options) {
        this.store = store;
        this.name = name;
        this.options = options;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public LockOptions options() {
        return options;
    }

    @Override
    public Lease acquire() throws InterruptedException {
        return store.acquire(name, 1, false, options, Wait.forever());
    }

    @Override
    public Optional<Lease> tryAcquire() {
        return store.tryOnce(name, 1, false, options);
    }

    @Override
    public Optional<Lease> tryAcquire(Duration maxWait) throws InterruptedException {
        Arguments.requireNonNegative(maxWait, "maxWait");
        return Optional.ofNullable(store.acquire(name, 1, false, options, Wait.upTo(maxWait)));
    }

    @Override
    public Lock asLock() {
        Lock view = adapter;
        if (view == null) {
            Lock made = store.lockViews.of(this);
            view = ADAPTER.compareAndSet(this, null, made) ? made : adapter;
        }
        return view;
    }

    @Override
    public String toString() {
        return "DistributedLock[" + name + ", " + options + "]";
    }
}
