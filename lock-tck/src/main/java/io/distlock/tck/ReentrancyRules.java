package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** §7 Reentrancy: per thread and per store; the lock is freed at the outermost release; leases cross threads. */
public interface ReentrancyRules extends TckSupport {

    @Test
    @DisplayName("§7.1 nested leases on one thread; the lock is freed only at the outermost release")
    default void rule_7_1_nestedLeasesFreedAtOutermostRelease() throws InterruptedException {
        LockStore store = tck().client();
        LockStore other = tck().client();
        String name = tck().name("nested");
        Lease outer = store.lock(name).acquire();
        Lease middle = store.lock(name).acquire();
        Lease inner = store.lock(name).tryAcquire().orElseThrow(() -> new AssertionError("reentrant tryAcquire"));
        inner.release();
        middle.release();
        assertThat(outer.isValid()).isTrue();
        assertThat(other.lock(name).tryAcquire()).as("still held after inner releases").isEmpty();
        outer.release();
        Optional<Lease> after = other.lock(name).tryAcquire(Tck.PROMPTLY);
        assertThat(after).as("free after the outermost release").isPresent();
        after.get().release();
    }

    @Test
    @DisplayName("§7.2 another thread of the same store is excluded while the lock is held")
    default void rule_7_2_otherThreadOfSameStoreExcluded() throws Exception {
        LockStore store = tck().client();
        String name = tck().name("same store");
        try (Lease held = store.lock(name).acquire()) {
            Optional<Lease> fromOtherThread = CompletableFuture.supplyAsync(() -> store.lock(name).tryAcquire())
                    .get(30, TimeUnit.SECONDS);
            assertThat(fromOtherThread).isEmpty();
            assertThat(held.isValid()).isTrue();
        }
    }

    @Test
    @DisplayName("§7.3 a lease can be released from another thread, which frees the lock")
    default void rule_7_3_leaseReleasedFromAnotherThread() throws Exception {
        LockStore store = tck().client();
        LockStore other = tck().client();
        String name = tck().name("handed over");
        Lease lease = store.lock(name).acquire();
        CompletableFuture.runAsync(lease::release).get(30, TimeUnit.SECONDS);
        assertThat(lease.isValid()).isFalse();
        Optional<Lease> next = other.lock(name).tryAcquire(Tck.PROMPTLY);
        assertThat(next).isPresent();
        next.get().release();
    }

    @Test
    @DisplayName("§7.4 a nested acquisition with other LockOptions is refused with IllegalArgumentException naming "
            + "both")
    default void rule_7_4_nestedAcquisitionWithOtherOptionsIsRefused() throws InterruptedException {
        LockStore store = tck().client();
        String name = tck().name("nested options");
        LockOptions outerOptions = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(20));
        LockOptions otherOptions = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(7)).withAutoRenew(false);
        try (Lease outer = store.lock(name, outerOptions).acquire()) {
            assertThatThrownBy(() -> store.lock(name, otherOptions).acquire())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(outerOptions.toString()).hasMessageContaining(otherOptions.toString());
            assertThatThrownBy(() -> store.lock(name, otherOptions).tryAcquire())
                    .isInstanceOf(IllegalArgumentException.class);
            try (Lease same = store.lock(name, outerOptions).acquire()) {
                assertThat(same.fencingToken()).isEqualTo(outer.fencingToken());
            }
            assertThat(outer.isValid()).isTrue();
        }
    }
}
