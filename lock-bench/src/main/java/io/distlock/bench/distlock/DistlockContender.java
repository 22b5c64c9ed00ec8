package io.distlock.bench.distlock;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.bench.core.Contender;
import io.distlock.bench.core.Held;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.Role;
import java.time.Duration;

/**
 * distlock itself, opened only through {@link LockStore#open(String)} with its default lock options (30 s lease,
 * auto-renew on), exactly as an application would use it. Each client is one {@link LockStore}.
 */
public final class DistlockContender extends Contender {

    private final String uri;

    /** A contender for the store at {@code uri} (for example {@code redis://127.0.0.1:6379}). */
    public DistlockContender(String uri) {
        super("distlock", Role.DISTLOCK);
        this.uri = uri;
    }

    @Override
    public boolean canHoldWithRenewal() {
        return true;
    }

    @Override
    protected LockClient openClient() {
        return new StoreClient(LockStore.open(uri), LockOptions.defaults());
    }

    @Override
    public LockClient openRenewingClient(Duration leaseTime) {
        return new StoreClient(LockStore.open(uri), LockOptions.defaults().withLeaseTime(leaseTime)
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
