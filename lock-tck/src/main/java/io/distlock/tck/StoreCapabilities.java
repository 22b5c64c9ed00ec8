package io.distlock.tck;

import io.distlock.Features;
import io.distlock.LeaseModel;
import io.distlock.LockStore;
import io.distlock.spi.StoreUri;
import java.time.Duration;

/**
 * What the kit must be told of a store under test because the store cannot state it of itself; the rest (lease
 * model, session timeout, admin view, semaphores) the kit reads from {@link LockStore#features()}. A rule that needs
 * what the store lacks is reported as skipped with the reason, never passed silently.
 *
 * @param separateJvmClients whether {@link LockStoreTck#storeUri()} can be opened by another JVM
 * @param expiryMargin extra time, beyond the lease time or session timeout, a dead holder's lock may take to free;
 *        null for the default of the store's lease model ({@link #expiryMargin(Features)})
 * @param sessionTimeout for a session-bound store, the session timeout the kit assumes instead of the one the store
 *        states (the CLI's {@code --timeout}); null for the store's own
 */
public record StoreCapabilities(boolean separateJvmClients, Duration expiryMargin, Duration sessionTimeout) {

    private static final Duration TIME_BOUND_MARGIN = Duration.ofSeconds(2);
    private static final Duration SESSION_BOUND_MARGIN = Duration.ofSeconds(5);

    /** A store reachable from other JVMs, with the default expiry margin and its own session timeout. */
    public static StoreCapabilities defaults() {
        return new StoreCapabilities(true, null, null);
    }

    /**
     * The defaults for a store opened from {@code uri}: separate-JVM clients unless it is the in-memory {@code mem:}
     * store, which lives inside one JVM.
     */
    public static StoreCapabilities of(String uri) {
        return defaults().withSeparateJvmClients(!StoreUri.parse(uri).scheme().equals("mem"));
    }

    /** A copy with separate-JVM clients on or off (the in-memory store has none). */
    public StoreCapabilities withSeparateJvmClients(boolean on) {
        return new StoreCapabilities(on, expiryMargin, sessionTimeout);
    }

    /** A copy that assumes {@code timeout} as the session timeout of a session-bound store. */
    public StoreCapabilities withSessionTimeout(Duration timeout) {
        return new StoreCapabilities(separateJvmClients, expiryMargin, timeout);
    }

    /** A copy with another expiry margin. */
    public StoreCapabilities withExpiryMargin(Duration margin) {
        return new StoreCapabilities(separateJvmClients, margin, sessionTimeout);
    }

    /** The expiry margin for a store with {@code features}: the declared one, else 2 s time-bound, 5 s session. */
    public Duration expiryMargin(Features features) {
        if (expiryMargin != null) {
            return expiryMargin;
        }
        return features.leaseModel() == LeaseModel.SESSION ? SESSION_BOUND_MARGIN : TIME_BOUND_MARGIN;
    }

    /**
     * The session timeout of a session-bound store with {@code features}: the declared one, else the store's own.
     *
     * @throws IllegalStateException if neither says one (a session-bound store must state its session timeout)
     */
    public Duration sessionTimeout(Features features) {
        if (sessionTimeout != null) {
            return sessionTimeout;
        }
        return features.sessionTimeout().orElseThrow(() -> new IllegalStateException(
                "a " + features.leaseModel() + " store states no session timeout"));
    }
}
