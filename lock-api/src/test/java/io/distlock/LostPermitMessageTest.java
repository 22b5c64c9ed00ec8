package io.distlock;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A lost permit is reported as a lease on its semaphore, not on a lock of the same name (a separate thing). */
class LostPermitMessageTest {

    @Test
    void aPermitTakenOverAfterItsLeaseRanOutIsReportedLostAsALeaseOnItsSemaphore() throws Exception {
        String uri = "mem:lost-permit-" + UUID.randomUUID();
        try (LockStore store = LockStore.open(uri); LockStore other = LockStore.open(uri)) {
            LockOptions expiring = LockOptions.defaults().withLeaseTime(Duration.ofMillis(200)).withAutoRenew(false);
            Lease permit = store.semaphore("jobs", 1, expiring).acquire();
            try (Lease next = other.semaphore("jobs", 1).tryAcquire(Duration.ofSeconds(10)).orElseThrow()) {
                assertThatThrownBy(permit::release).isInstanceOf(LockLostException.class)
                        .hasMessageStartingWith("lease on semaphore 'jobs' (fencing token ");
            }
        }
    }
}
