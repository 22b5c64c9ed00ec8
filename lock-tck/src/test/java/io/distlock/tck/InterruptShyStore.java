package io.distlock.tck;

import io.distlock.DistributedLock;
import io.distlock.Features;
import io.distlock.Lease;
import io.distlock.LockAdmin;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * A broken lock store for the kit's self-check: a store of its own, not the shared core, whose single attempts
 * ({@code tryAcquire()}, {@code tryLock()}) return "not acquired" on a thread whose interrupt flag is set.
 */
final class InterruptShyStore implements LockStore {

    private final LockStore delegate;

    InterruptShyStore(LockStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public DistributedLock lock(String name, LockOptions options) {
        DistributedLock real = delegate.lock(name, options);
        return new DistributedLock() {
            @Override
            public String name() {
                return real.name();
            }

            @Override
            public LockOptions options() {
                return real.options();
            }

            @Override
            public Lease acquire() throws InterruptedException {
                return real.acquire();
            }

            @Override
            public Optional<Lease> tryAcquire() {
                return Thread.currentThread().isInterrupted() ? Optional.empty() : real.tryAcquire();
            }

            @Override
            public Optional<Lease> tryAcquire(Duration maxWait) throws InterruptedException {
                return real.tryAcquire(maxWait);
            }

            @Override
            public Lock asLock() {
                Lock view = real.asLock();
                return new Lock() {
                    @Override
                    public void lock() {
                        view.lock();
                    }

                    @Override
                    public void lockInterruptibly() throws InterruptedException {
                        view.lockInterruptibly();
                    }

                    @Override
                    public boolean tryLock() {
                        return !Thread.currentThread().isInterrupted() && view.tryLock();
                    }

                    @Override
                    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
                        return view.tryLock(time, unit);
                    }

                    @Override
                    public void unlock() {
                        view.unlock();
                    }

                    @Override
                    public Condition newCondition() {
                        return view.newCondition();
                    }
                };
            }
        };
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
        delegate.close();
    }
}
