package io.distlock.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.DistributedSemaphore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Semaphore permits in the metrics: acquired, released, lost, held and waiting, tagged by semaphore name. */
class PermitMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private LockStore store;

    private LockStore mem(LockStoreMetrics metrics) {
        metrics.bindTo(registry);
        store = metrics.open("mem:permit-metrics-" + UUID.randomUUID());
        return store;
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private long acquires(String semaphore, String outcome) {
        return registry.get("distlock.permits.acquire").tag("semaphore", semaphore).tag("outcome", outcome).timer()
                .count();
    }

    private double held(String semaphore) {
        return registry.get("distlock.permits.held").tag("semaphore", semaphore).gauge().value();
    }

    private double counter(String meter, String semaphore) {
        return registry.get(meter).tag("semaphore", semaphore).counter().count();
    }

    private double lost(String semaphore, String cause) {
        return registry.get("distlock.permits.lost").tag("semaphore", semaphore).tag("cause", cause).counter()
                .count();
    }

    @Test
    void permitsAreCountedAcquiredHeldAndReleased() throws Exception {
        DistributedSemaphore api = mem(new LockStoreMetrics("test")).semaphore("api", 2);
        Lease first = api.acquire();
        Lease second = api.tryAcquire().orElseThrow();
        assertThat(held("api")).isEqualTo(2.0);
        assertThat(api.tryAcquire()).isEmpty();
        assertThat(acquires("api", "acquired")).isEqualTo(2);
        assertThat(acquires("api", "timed_out")).isEqualTo(1);
        first.release();
        second.close();
        second.close(); // a second close is not a second release
        assertThat(held("api")).isZero();
        assertThat(counter("distlock.permits.released", "api")).isEqualTo(2.0);
        assertThat(registry.get("distlock.permits.acquire").tag("store", "test").timers()).isNotEmpty();
        assertThat(registry.find("distlock.leases.held").gauge().value()).as("permits are not lock holds").isZero();
    }

    @Test
    void aPermitThatExpiresIsLostWithItsCause() throws Exception {
        DistributedSemaphore expiring = mem(new LockStoreMetrics("test")).semaphore("expiring", 1,
                LockOptions.defaults().withLeaseTime(Duration.ofMillis(300)).withAutoRenew(false));
        Lease lease = expiring.acquire();
        await().atMost(Duration.ofSeconds(10)).until(() -> lost("expiring", "expired") == 1.0);
        assertThat(held("expiring")).isZero();
        assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
        assertThat(lost("expiring", "expired")).as("counted once").isEqualTo(1.0);
        assertThat(registry.get("distlock.permits.lost").tag("semaphore", "expiring").counters().stream()
                .mapToDouble(io.micrometer.core.instrument.Counter::count).sum()).as("under one cause").isEqualTo(1.0);
        assertThat(counter("distlock.permits.released", "expiring")).isZero();
    }

    @Test
    void threadsWaitingForAPermitAreWaiters() throws Exception {
        DistributedSemaphore one = mem(new LockStoreMetrics("test")).semaphore("queue", 1);
        Lease held = one.acquire();
        CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> {
            try {
                one.acquire().release();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> registry.find("distlock.permits.waiters")
                .tag("semaphore", "queue").gauge() != null
                && registry.get("distlock.permits.waiters").tag("semaphore", "queue").gauge().value() == 1.0);
        held.release();
        waiter.get(10, TimeUnit.SECONDS);
        assertThat(registry.get("distlock.permits.waiters").tag("semaphore", "queue").gauge().value()).isZero();
    }

    @Test
    void semaphoreNamesBeyondTheBoundShareOneTag() throws Exception {
        LockStore store = mem(new LockStoreMetrics("test", 2));
        for (String name : new String[] {"a", "b", "c", "d"}) {
            store.semaphore(name, 1).acquire().release();
        }
        assertThat(acquires("a", "acquired")).isEqualTo(1);
        assertThat(acquires("b", "acquired")).isEqualTo(1);
        assertThat(acquires(LockStoreMetrics.OTHER_NAMES, "acquired")).as("c and d").isEqualTo(2);
        assertThat(registry.find("distlock.permits.acquire").tag("semaphore", "c").timer()).isNull();
        assertThatThrownBy(() -> new LockStoreMetrics("test", -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxSemaphoreNames");
    }
}
