package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LeaseState;
import io.distlock.LockStore;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * §10 Closing a store releases its leases at once and marks them lost; §23 work a close abandons (acquisitions in
 * flight) never leaves a lock, permit or term held by nobody alive.
 */
public interface CloseRules extends TckSupport {

    @Test
    @DisplayName("§10.1 closing a store frees its locks at once and marks its leases lost, telling their listeners")
    default void rule_10_1_closeReleasesLeases() throws InterruptedException {
        LockStore closing = tck().client();
        LockStore other = tck().client();
        String name = tck().name("closed");
        Lease lease = closing.lock(name).acquire();
        CountDownLatch told = new CountDownLatch(1);
        lease.onLost(e -> told.countDown());
        closing.close();
        assertThat(lease.isValid()).isFalse();
        assertThat(lease.state()).isEqualTo(LeaseState.LOST);
        assertThat(told.await(Tck.PROMPTLY.toMillis(), TimeUnit.MILLISECONDS)).as("listener told").isTrue();
        Optional<Lease> next = other.lock(name).tryAcquire(Tck.PROMPTLY);
        assertThat(next).as("free at once, not after the 30 s lease").isPresent();
        next.get().release();
    }

    @Test
    @DisplayName("§10.2 a closed store refuses new acquisitions with IllegalStateException; close is idempotent")
    default void rule_10_2_closedStoreRefusesAcquisitions() {
        LockStore store = tck().client();
        store.close();
        store.close();
        assertThatThrownBy(() -> store.lock(tck().name("after close")).tryAcquire())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    /** Rounds of §23.1: a close lands among acquisitions in flight at a different moment in each. */
    int ABANDONED_ROUNDS = 16;

    @Test
    @DisplayName("§23.1 a store closed while acquisitions are in flight on several threads (locks, a semaphore, a "
            + "leadership campaign, a blocked acquire) leaves nothing held: another client gets every name at once")
    default void rule_23_1_closeAmongAcquisitionsInFlightLeavesNothingHeld() throws InterruptedException {
        LockStore other = tck().client();
        boolean semaphores = other.features().semaphores(); // without them the locks and the campaign are checked
        for (int round = 1; round <= ABANDONED_ROUNDS; round++) {
            List<String> problems = new CloseDuringAcquisitions(tck(), other, semaphores, round).run();
            assertThat(problems).as("round " + round + " of " + ABANDONED_ROUNDS).isEmpty();
        }
    }
}
