package io.distlock.core;

import io.distlock.spi.Grant;
import io.distlock.spi.LeaseEvents;
import io.distlock.spi.LockBackend;
import io.distlock.spi.Terms;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the counting test backends share: a real backend underneath, the lease events the core attached, and grant
 * calls counted while in flight, whose grant can be reported lost before the core has it (the acquisition race).
 */
abstract class CountingBackendBase implements LockBackend {

    final LockBackend delegate;
    volatile LeaseEvents events;

    CountingBackendBase(LockBackend delegate) {
        this.delegate = delegate;
    }

    @Override
    public Terms terms() {
        return delegate.terms();
    }

    @Override
    public void attach(LeaseEvents events) {
        this.events = events;
    }

    @Override
    public void close() {
        delegate.close();
    }

    /** Makes {@code call}, counted in {@code inFlight} while it runs; {@code maxInFlight} keeps the most at once. */
    static Grant countedInFlight(AtomicInteger inFlight, AtomicInteger maxInFlight, GrantCall call)
            throws InterruptedException {
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        try {
            return call.grant();
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** The grant (or null), reported lost first with {@code reason} as if its node vanished right after the grant. */
    final Grant lostFirst(Grant grant, String reason) {
        if (grant != null) {
            events.lost(grant, reason);
        }
        return grant;
    }

    /** One call to the real backend that may grant. */
    @FunctionalInterface
    interface GrantCall {
        Grant grant() throws InterruptedException;
    }
}
