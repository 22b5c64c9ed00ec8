package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockStore;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** §4 Only the holder releases: a lease that lost its lock can neither release nor extend the next holder's. */
public interface OwnershipRules extends TckSupport {

    @Test
    @DisplayName("§4.1 an expired lease cannot release the next holder's lock; its release reports the loss")
    default void rule_4_1_expiredLeaseCannotReleaseNextHoldersLock() throws InterruptedException {
        Tck.assumeTimeBound(tck());
        LockStore slow = tck().client();
        LockStore next = tck().client();
        LockStore third = tck().client();
        String name = tck().name("points");
        Lease stale = slow.lock(name, Tck.expiring()).acquire();
        Lease current = next.lock(name).tryAcquire(Tck.deadHolderBound(tck(), Tck.SHORT_LEASE)).orElseThrow(
                () -> new AssertionError("the lock did not free after its lease ran out"));
        assertThat(current.fencingToken()).isGreaterThan(stale.fencingToken());
        assertThatThrownBy(stale::release).isInstanceOf(LockLostException.class);
        assertThat(current.isValid()).as("the new holder keeps its lease").isTrue();
        assertThat(third.lock(name).tryAcquire()).as("the lock is still held by the new holder").isEmpty();
        current.release();
    }

    @Test
    @DisplayName("§4.2 an expired lease cannot extend; extend returns false and the new holder is untouched")
    default void rule_4_2_expiredLeaseCannotExtend() throws InterruptedException {
        Tck.assumeTimeBound(tck());
        LockStore slow = tck().client();
        LockStore next = tck().client();
        String name = tck().name("extend");
        Lease stale = slow.lock(name, Tck.expiring()).acquire();
        Lease current = next.lock(name).tryAcquire(Tck.deadHolderBound(tck(), Tck.SHORT_LEASE)).orElseThrow();
        assertThat(stale.extend(Duration.ofSeconds(30))).isFalse();
        assertThat(stale.isValid()).isFalse();
        assertThat(current.isValid()).isTrue();
        current.release();
    }

    @Test
    @DisplayName("§4.3 a lock deleted behind its holder's back and taken by another: the old lease cannot release it")
    default void rule_4_3_forciblyReleasedLeaseCannotReleaseNextHolder() throws InterruptedException {
        Tck.assumeForceRelease(tck());
        LockStore victim = tck().client();
        LockStore operator = tck().client();
        LockStore next = tck().client();
        String name = tck().name("forced");
        Lease old = victim.lock(name).acquire();
        assertThat(operator.admin().forceRelease(name)).isTrue();
        Lease current = next.lock(name).tryAcquire(Tck.PROMPTLY).orElseThrow();
        assertThat(current.fencingToken()).isGreaterThan(old.fencingToken());
        assertThatThrownBy(old::release).isInstanceOf(LockLostException.class);
        assertThat(current.isValid()).as("the new holder keeps its lease").isTrue();
        assertThat(victim.lock(name).tryAcquire()).as("still held by the new holder").isEmpty();
        current.release();
    }

    @Test
    @DisplayName("§4.4 release is idempotent: a second release does nothing and frees nobody else's lock")
    default void rule_4_4_releaseIsIdempotent() {
        LockStore a = tck().client();
        LockStore b = tck().client();
        String name = tck().name("twice");
        Lease first = a.lock(name).tryAcquire().orElseThrow();
        first.release();
        Lease second = b.lock(name).tryAcquire().orElseThrow();
        first.release();
        first.close();
        assertThat(second.isValid()).isTrue();
        assertThat(a.lock(name).tryAcquire()).isEmpty();
        second.release();
    }
}
