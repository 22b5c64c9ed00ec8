package io.distlock.tck;

import io.distlock.StoreUnavailableException;
import io.distlock.spi.Grant;
import io.distlock.spi.LockBackend;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Record locks for the kit's §24 on the stub: an operator's transaction ({@link #lockRecord}) keeps a name's record
 * locked, and a client's acquire is a "statement" that runs on a thread of the store's own and waits for the record.
 * The client waits for its statement at most its operation timeout, then gives up with
 * {@link StoreUnavailableException}. A store without a server-side bound ({@code serverBound} null) lets the
 * abandoned statement go on and take the lock when the record is unlocked, for a token no client has, as
 * PostgreSQL's acquire did before it carried a {@code lock_timeout}; with one below the client's timeout, the
 * statement gives up first and takes nothing.
 */
final class RecordLockingStub {

    private final ConcurrentHashMap<String, CountDownLatch> locked = new ConcurrentHashMap<>();
    private final Duration clientTimeout;
    private final Duration serverBound;

    /**
     * @param clientTimeout how long a client waits for its statement
     * @param serverBound how long a statement waits for a locked record before it fails, or null: as long as it takes
     */
    RecordLockingStub(Duration clientTimeout, Duration serverBound) {
        this.clientTimeout = clientTimeout;
        this.serverBound = serverBound;
    }

    /** The kit's hand: locks {@code name}'s record until the handle is closed. */
    RecordLocking recordLocking() {
        return name -> {
            CountDownLatch transaction = new CountDownLatch(1);
            if (locked.putIfAbsent(name, transaction) != null) {
                throw new IllegalStateException("the record of " + name + " is locked already");
            }
            return () -> {
                locked.remove(name, transaction);
                transaction.countDown();
            };
        };
    }

    /** {@code backend} with its acquires run as statements that wait for locked records. */
    LockBackend statements(LockBackend backend) {
        return new ForwardingBackend(backend) {
            @Override
            public Grant acquire(String name, Duration leaseTime, Wait wait) throws InterruptedException {
                CompletableFuture<Void> recordFree = new CompletableFuture<>();
                CompletableFuture<Grant> statement = CompletableFuture.supplyAsync(() -> {
                    waitForRecord(name);
                    recordFree.complete(null);
                    try {
                        return delegate.acquire(name, leaseTime, wait);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new StoreUnavailableException("statement interrupted", e);
                    }
                });
                try {
                    // the client's timeout covers the wait on the record; the caller's own wait comes after it
                    CompletableFuture.anyOf(recordFree, statement).get(clientTimeout.toNanos(), TimeUnit.NANOSECONDS);
                    return statement.get();
                } catch (TimeoutException e) {
                    throw new StoreUnavailableException("no answer to the acquire of '" + name + "' within "
                            + clientTimeout.toMillis() + " ms (the client gave up on its statement)", e);
                } catch (ExecutionException e) {
                    throw new StoreUnavailableException("the acquire of '" + name + "' failed: " + e.getCause(), e);
                }
            }
        };
    }

    private void waitForRecord(String name) {
        CountDownLatch transaction = locked.get(name);
        if (transaction == null) {
            return;
        }
        try {
            if (serverBound == null) {
                transaction.await();
            } else if (!transaction.await(serverBound.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new StoreUnavailableException("lock wait timeout on the record of '" + name + "'");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("statement interrupted", e);
        }
    }
}
