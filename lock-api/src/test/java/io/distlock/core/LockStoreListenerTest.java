package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.LockStoreListener;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LockStoreListenerTest {

    @Test
    void theListenerIsToldOfEachBackgroundRenewalRoundTrip() throws Exception {
        AtomicInteger roundTrips = new AtomicInteger();
        AtomicInteger leases = new AtomicInteger();
        AtomicInteger lost = new AtomicInteger();
        try (LockStore store = LockStore.open("mem:listener-test")) {
            ((BackendLockStore) store).setListener(new LockStoreListener() {
                @Override
                public void renewed(int renewedLeases, int lostLeases, long nanos) {
                    roundTrips.incrementAndGet();
                    leases.addAndGet(renewedLeases);
                    lost.addAndGet(lostLeases);
                }
            });
            LockOptions shortLease = LockOptions.defaults().withLeaseTime(Duration.ofMillis(300));
            try (Lease a = store.lock("a", shortLease).acquire(); Lease b = store.lock("b", shortLease).acquire()) {
                await().atMost(Duration.ofSeconds(10)).until(() -> roundTrips.get() >= 3);
                assertThat(a.isValid()).isTrue();
                assertThat(b.isValid()).isTrue();
            }
        }
        assertThat(leases.get()).as("each round trip renews one or both leases")
                .isBetween(roundTrips.get(), 2 * roundTrips.get());
        assertThat(lost).hasValue(0);
    }
}
