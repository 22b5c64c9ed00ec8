package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockInfo;
import io.distlock.LockLostException;
import io.distlock.LockStore;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * §25 An operator's force-release breaks only the holder the operator saw, and a holder that was broken gets no
 * nested lease of a lock now held by another.
 */
public interface ForceReleaseRules extends TckSupport {

    @Test
    @DisplayName("§25.1 force-release under the listed fencing token releases that holder; another client takes the lock")
    default void rule_25_1_forceReleaseOfTheListedHolderReleasesIt() throws InterruptedException {
        Tck.assumeForceRelease(tck());
        LockStore holder = tck().client();
        LockStore operator = tck().client();
        String name = tck().name("listed");
        Lease lease = holder.lock(name).acquire();
        LockInfo seen = operator.admin().list(name, 10).stream().filter(l -> l.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("the held lock is listed"));
        assertThat(operator.admin().forceRelease(name, seen.fencingToken())).isTrue();
        Lease next = tck().client().lock(name).tryAcquire(Tck.PROMPTLY)
                .orElseThrow(() -> new AssertionError("the force-released lock is free"));
        assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
        assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
        next.release();
    }

    @Test
    @DisplayName("§25.2 force-release under an earlier holder's token is refused: the lock changed hands and its new holder keeps it")
    default void rule_25_2_forceReleaseOfAnEarlierHolderIsRefused() throws InterruptedException {
        Tck.assumeForceRelease(tck());
        LockStore first = tck().client();
        LockStore second = tck().client();
        LockStore operator = tck().client();
        String name = tck().name("changed hands");
        Lease earlier = first.lock(name).acquire();
        long seen = earlier.fencingToken();
        earlier.release();
        assertThat(operator.admin().forceRelease(name, seen)).as("a free lock").isFalse();
        Lease now = second.lock(name).acquire();
        assertThat(operator.admin().forceRelease(name, seen)).as("held under another token").isFalse();
        assertThat(operator.lock(name).tryAcquire()).as("the new holder keeps the lock").isEmpty();
        assertThat(now.isValid()).isTrue();
        now.release();
    }

    @Test
    @DisplayName("§25.3 a nested acquisition after the lock was force-released and taken by another client is not granted")
    default void rule_25_3_nestedAcquisitionAfterATakeoverIsNotGranted() throws InterruptedException {
        Tck.assumeForceRelease(tck());
        LockStore nodeA = tck().client();
        LockStore nodeB = tck().client();
        String name = tck().name("taken over");
        Lease outer = nodeA.lock(name).acquire();
        assertThat(tck().client().admin().forceRelease(name)).isTrue();
        Lease taken = nodeB.lock(name).tryAcquire(Tck.PROMPTLY)
                .orElseThrow(() -> new AssertionError("the force-released lock is free"));
        assertThat(nodeA.lock(name).tryAcquire()).as("node A's nested tryAcquire while node B holds the lock")
                .isEmpty();
        assertThatThrownBy(outer::release).isInstanceOf(LockLostException.class);
        assertThat(taken.isValid()).as("node B's lease is untouched").isTrue();
        taken.release();
    }
}
