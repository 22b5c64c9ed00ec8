package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** §11 A lease lost while held says so at once: its listeners fire and isValid() turns false. */
public interface LostLeaseRules extends TckSupport {

    @Test
    @DisplayName("§11.1 a lease that expires without renewal fires its listener and turns invalid")
    default void rule_11_1_expiryFiresLostListener() throws InterruptedException {
        Tck.assumeTimeBound(tck());
        Lease lease = tck().client().lock(tck().name("expires"), Tck.expiring()).acquire();
        AtomicReference<LockLostException> cause = new AtomicReference<>();
        CountDownLatch told = new CountDownLatch(1);
        lease.onLost(e -> {
            cause.set(e);
            told.countDown();
        });
        assertThat(told.await(Tck.SHORT_LEASE.plus(Tck.PROMPTLY).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(lease.isValid()).isFalse();
        assertThat(cause.get().lockName()).isEqualTo(lease.lockName());
        assertThat(cause.get().fencingToken()).isEqualTo(lease.fencingToken());
        assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
    }

    @Test
    @DisplayName("§11.2 a lease deleted behind its back is reported lost by the next renewal")
    default void rule_11_2_deletionBehindItsBackFiresLostListener() throws InterruptedException {
        Tck.assumeForceRelease(tck());
        LockStore holder = tck().client();
        LockStore operator = tck().client();
        LockOptions options = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(3));
        Lease lease = holder.lock(tck().name("deleted"), options).acquire();
        CountDownLatch told = new CountDownLatch(1);
        lease.onLost(e -> told.countDown());
        assertThat(operator.admin().forceRelease(lease.lockName())).isTrue();
        assertThat(told.await(options.leaseTime().plus(Tck.PROMPTLY).toMillis(), TimeUnit.MILLISECONDS))
                .as("lost signal within a renewal interval plus margin").isTrue();
        assertThat(lease.isValid()).isFalse();
        assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
    }

    @Test
    @DisplayName("§11.3 a listener added after the loss is called at once; a released lease never fires")
    default void rule_11_3_lateListenerCalledReleasedNeverFires() throws InterruptedException {
        LockStore store = tck().client();
        Lease released = store.lock(tck().name("released")).acquire();
        CountDownLatch releasedTold = new CountDownLatch(1);
        released.onLost(e -> releasedTold.countDown());
        released.release();
        Lease lost = store.lock(tck().name("late")).acquire();
        store.close();
        CountDownLatch lateTold = new CountDownLatch(1);
        lost.onLost(e -> lateTold.countDown());
        assertThat(lateTold.await(Tck.PROMPTLY.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(releasedTold.getCount()).as("a released lease is not lost").isEqualTo(1);
    }
}
