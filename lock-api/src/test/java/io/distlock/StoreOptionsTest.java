package io.distlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Opening a store with default lock options and listeners, through the public API only. */
class StoreOptionsTest {

    private static String mem() {
        return "mem:store-options-" + UUID.randomUUID();
    }

    @Test
    void locksAndSemaphoresAskedForByNameGetTheDefaultsAndExplicitOptionsAreKept() throws Exception {
        LockOptions defaults = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(7)).withAutoRenew(false);
        try (LockStore store = LockStore.open(mem(), StoreOptions.defaults().withLockOptions(defaults))) {
            assertThat(store.defaultOptions()).isEqualTo(defaults);
            assertThat(store.lock("orders:1").options()).isEqualTo(defaults);
            DistributedSemaphore byName = store.semaphore("licences", 2);
            assertThat(byName.options()).isEqualTo(defaults);
            LockOptions explicit = LockOptions.defaults().withAutoRenew(false);
            assertThat(store.lock("orders:1", explicit).options()).isEqualTo(explicit);
            assertThat(store.semaphore("licences", 2, explicit).options()).isEqualTo(explicit);
            try (Lease lease = byName.acquire()) {
                assertThat(byName.availablePermits()).isEqualTo(1);
                assertThat(lease.lockName()).isEqualTo("licences");
            }
        }
        try (LockStore plain = LockStore.open(mem())) {
            assertThat(plain.defaultOptions()).isEqualTo(LockOptions.defaults());
            assertThat(plain.lock("x").options()).isEqualTo(LockOptions.defaults());
        }
    }

    @Test
    void everyListenerIsToldOfEachBackgroundRenewalRoundTrip() throws Exception {
        AtomicInteger roundTrips = new AtomicInteger();
        AtomicInteger leases = new AtomicInteger();
        AtomicInteger lost = new AtomicInteger();
        AtomicInteger second = new AtomicInteger();
        StoreOptions options = StoreOptions.defaults().withListener(new LockStoreListener() {
            @Override
            public void renewed(int renewedLeases, int lostLeases, long nanos) {
                roundTrips.incrementAndGet();
                leases.addAndGet(renewedLeases);
                lost.addAndGet(lostLeases);
            }
        }).withListener(new LockStoreListener() {
            @Override
            public void renewed(int renewedLeases, int lostLeases, long nanos) {
                second.incrementAndGet();
            }
        });
        try (LockStore store = LockStore.open(mem(), options)) {
            LockOptions shortLease = LockOptions.defaults().withLeaseTime(Duration.ofMillis(300));
            try (Lease a = store.lock("a", shortLease).acquire(); Lease b = store.lock("b", shortLease).acquire()) {
                await().atMost(Duration.ofSeconds(10)).until(() -> roundTrips.get() >= 3 && second.get() >= 3);
                assertThat(a.isValid()).isTrue();
                assertThat(b.isValid()).isTrue();
            }
        }
        assertThat(leases.get()).as("each round trip renews one or both leases")
                .isBetween(roundTrips.get(), 2 * roundTrips.get());
        assertThat(lost).hasValue(0);
        assertThat(second.get()).as("the second listener hears every round trip the first does")
                .isEqualTo(roundTrips.get());
    }

    @Test
    void badArgumentsAreRefusedNamingThem() {
        assertThatThrownBy(() -> StoreOptions.defaults().withLockOptions(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("options");
        assertThatThrownBy(() -> StoreOptions.defaults().withListener(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("listener");
        assertThatThrownBy(() -> LockStore.open(mem(), null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("options");
        assertThat(StoreOptions.defaults().listener()).isSameAs(LockStoreListener.NONE);
    }
}
