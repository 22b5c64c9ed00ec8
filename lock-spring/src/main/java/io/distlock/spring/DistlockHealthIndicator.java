package io.distlock.spring;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import java.time.Duration;
import java.util.Optional;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Whether the lock store answers: tries once to take and release the probe lock {@value #PROBE_NAME} (10 s lease,
 * no renewal). UP with the round-trip time when the store answers, whether the probe was free or held by another
 * instance's check; DOWN with the store's error when it cannot be reached.
 */
public final class DistlockHealthIndicator implements HealthIndicator {

    private static final LockOptions PROBE = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(10))
            .withAutoRenew(false);

    private final LockStore store;
    /** One name for every instance: a per-instance name would leave a row per start-up in a SQL store's table. */
    static final String PROBE_NAME = "distlock-health-probe";

    /** An indicator probing {@code store}. */
    public DistlockHealthIndicator(LockStore store) {
        this.store = store;
    }

    @Override
    public Health health() {
        long start = System.nanoTime();
        try {
            Optional<Lease> lease = store.lock(PROBE_NAME, PROBE).tryAcquire();
            lease.ifPresent(Lease::release);
            long millis = (System.nanoTime() - start) / 1_000_000;
            // either answer proves the store reachable; "held" means another instance's check holds it now, or an
            // earlier probe's request reached the store after that probe had given up (its lease runs out alone)
            return Health.up().withDetail("store", store.toString()).withDetail("probeMillis", millis)
                    .withDetail("probe", lease.isPresent() ? "acquired and released" : "held by another check")
                    .build();
        } catch (StoreUnavailableException | IllegalStateException e) {
            return Health.down(e).withDetail("store", store.toString()).build();
        }
    }
}
