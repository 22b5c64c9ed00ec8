package io.distlock.spi;

import java.util.function.IntToLongFunction;
import java.util.function.Supplier;

/**
 * Waiting for a permit on a store that offers one atomic attempt, in the wait loop of locks
 * ({@link PollingLockBackend}): after a failed attempt, sleep until a release signal for the name, the next poll
 * (the store's delay after so many failures in a row, {@link Backoff#pollNanos} by default) or the deadline,
 * whichever comes first. Backends keep a
 * {@link ReleaseSignals} for permits apart from the one for locks, since the two name spaces are independent.
 */
public final class PermitWaits {

    /** One atomic attempt: the grant, or null if the semaphore was full. */
    @FunctionalInterface
    public interface PermitAttempt {
        Grant attempt();
    }

    private PermitWaits() {
    }

    /**
     * Attempts until granted or {@code wait} is over, polling {@code pollNanos(failures)} apart. Each grant's issue
     * time is the moment its attempt was sent, unless the attempt filled it in.
     *
     * @return the grant, or null if none was free in time
     */
    public static Grant acquire(ReleaseSignals signals, String name, Wait wait, IntToLongFunction pollNanos,
            PermitAttempt attempt) throws InterruptedException {
        Supplier<PollingLockBackend.Attempt> timed = () -> PollingLockBackend.timed(
                () -> new PollingLockBackend.Attempt(attempt.attempt(), -1)); // granted, or held for a time unknown
        if (wait.isNone()) {
            return timed.get().grant();
        }
        try (ReleaseSignals.Ticket ticket = signals.ticket(name)) {
            return PollingLockBackend.waitFor("a permit of semaphore", name, wait, ticket, null, timed,
                    (failures, holderTtlNanos) -> pollNanos.applyAsLong((int) failures));
        }
    }
}
