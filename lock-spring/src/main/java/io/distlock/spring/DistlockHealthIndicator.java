package io.distlock.spring;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Whether the lock store answers: tries once to take and release a probe lock of its own (a name no other process
 * uses, a 10 s lease, no renewal). UP with the round-trip time when the store answers (whether or not the probe
 * was free); DOWN with the store's error when it cannot be reached.
 */
public final class DistlockHealthIndicator implements HealthIndicator {

    private static final LockOptions PROBE = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(10))
            .withAutoRenew(false);

    private final LockStore store;
    private final String probeName = "distlock-health:" + UUID.randomUUID();

    /** An indicator probing {@code store}. */
    public DistlockHealthIndicator(LockStore store) {
        this.store = store;
    }

    @Override
    public Health health() {
        long start = System.nanoTime();
        try {
            Optional<Lease> lease = store.lock(probeName, PROBE).tryAcquire();
            lease.ifPresent(Lease::release);
            long millis = (System.nanoTime() - start) / 1_000_000;
            // either answer proves the store reachable; "held" happens when an earlier probe's request reached the
            // store after that probe had given up waiting (its lease then runs out on its own)
            return Health.up().withDetail("store", store.toString()).withDetail("probeMillis", millis)
                    .withDetail("probe", lease.isPresent() ? "acquired and released" : "held by an earlier probe")
                    .build();
        } catch (StoreUnavailableException | IllegalStateException e) {
            return Health.down(e).withDetail("store", store.toString()).build();
        }
    }
}
