package io.distlock.mem;


import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.spi.Stores;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The mem: store forgets expired locks it is never asked about again, so a long-lived space does not grow. */
class MemExpiryTest {

    @Test
    void expiredEntriesOfNamesNeverUsedAgainAreDropped() throws InterruptedException {
        MemSpace space = new MemSpace();
        try (LockStore store = Stores.over(new MemBackend(space), "mem:expiry-test")) {
            LockOptions expiring = LockOptions.defaults().withLeaseTime(Duration.ofMillis(100)).withAutoRenew(false);
            for (int i = 0; i < 200; i++) {
                store.lock("once-" + i, expiring).acquire();
            }
            Awaitility.await("expired entries are dropped while the store is used for other names")
                    .atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        store.lock("busy").tryAcquire().ifPresent(l -> l.release());
                        return space.entries.size() <= 1;
                    });
        }
    }

    @Test
    void expiredPermitsOfSemaphoresNeverUsedAgainAreDropped() throws InterruptedException {
        MemSpace space = new MemSpace();
        try (LockStore store = Stores.over(new MemBackend(space), "mem:permit-expiry-test")) {
            LockOptions expiring = LockOptions.defaults().withLeaseTime(Duration.ofMillis(100)).withAutoRenew(false);
            for (int i = 0; i < 200; i++) {
                store.semaphore("once-" + i, 2, expiring).acquire();
                store.semaphore("once-" + i, 2, expiring).acquire();
            }
            Awaitility.await("expired permits are dropped while the store is used for other semaphores")
                    .atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        store.semaphore("busy", 1).tryAcquire().ifPresent(l -> l.release());
                        return space.permits.namesKept() <= 1;
                    });
        }
    }
}
