package io.distlock.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.Semaphore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The configured defaults reach semaphores asked for by name and limit only; explicit options are kept. */
class DefaultOptionsLockStoreTest {

    @Test
    void semaphoresGetTheConfiguredDefaults() throws InterruptedException {
        LockOptions defaults = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(7));
        try (LockStore store = new DefaultOptionsLockStore(LockStore.open("mem:"), defaults)) {
            Semaphore byName = store.semaphore("licences", 2);
            assertThat(byName.options()).isEqualTo(defaults);
            LockOptions explicit = LockOptions.defaults().withAutoRenew(false);
            assertThat(store.semaphore("licences", 2, explicit).options()).isEqualTo(explicit);
            try (Lease lease = byName.acquire()) {
                assertThat(byName.availablePermits()).isEqualTo(1);
                assertThat(lease.lockName()).isEqualTo("licences");
            }
        }
    }
}
