package io.distlock.bench.distlock;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.bench.core.Contender;
import io.distlock.bench.core.Held;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.Role;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * distlock itself, opened only through {@link LockStore#open(String)} with its default lock options (30 s lease,
 * auto-renew on), exactly as an application would use it. Each client is one {@link LockStore}.
 */
public final class DistlockContender extends Contender {

    private final IntFunction<String> uriOfClient;
    private final AtomicInteger opened = new AtomicInteger();

    /** A contender for the store at {@code uri} (for example {@code redis://127.0.0.1:6379}). */
    public DistlockContender(String uri) {
        this(client -> uri);
    }

    /**
     * A contender whose n-th client (from 0) opens the store at {@code uriOfClient.apply(n)}: a spelling per client
     * lets each share nothing in-process with the others ({@link io.distlock.bench.sql.SeparateClientUri}).
     */
    public DistlockContender(IntFunction<String> uriOfClient) {
        super("distlock", Role.DISTLOCK);
        this.uriOfClient = uriOfClient;
    }

    private String nextUri() {
        return uriOfClient.apply(opened.getAndIncrement());
    }

    @Override
    public boolean canHoldWithRenewal() {
        return true;
    }

    @Override
    protected LockClient openClient() {
        return new StoreClient(LockStore.open(nextUri()), LockOptions.defaults());
    }

    @Override
    public LockClient openRenewingClient(Duration leaseTime) {
        return new StoreClient(LockStore.open(nextUri()), LockOptions.defaults().withLeaseTime(leaseTime)
                .withAutoRenew(true));
    }

    /** One distlock store as a benchmark client. */
    private static final class StoreClient implements LockClient {
        private final LockStore store;
        private final LockOptions options;

        StoreClient(LockStore store, LockOptions options) {
            this.store = store;
            this.options = options;
        }

        @Override
        public Held acquire(String name) throws InterruptedException {
            Lease lease = store.lock(name, options).acquire();
            return lease::release;
        }

        @Override
        public void close() {
            store.close();
        }
    }
}
