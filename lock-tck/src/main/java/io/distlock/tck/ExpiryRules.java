package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.process.LockClientProcess;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** §5 Expiry: a dead or silent holder frees the lock in bounded time; a live, renewing holder keeps it. */
public interface ExpiryRules extends TckSupport {

    @Test
    @DisplayName("§5.1 a holder that stops renewing frees the lock within its lease time plus margin")
    default void rule_5_1_nonRenewingHolderFreesLockAfterLeaseTime() throws InterruptedException {
        Tck.assumeTimeBound(tck());
        LockStore holder = tck().client();
        LockStore other = tck().client();
        String name = tck().name("expiring");
        long beforeGrant = System.nanoTime(); // the lease runs from its grant, within acquire(): see §18.5
        Lease lease = holder.lock(name, Tck.expiring()).acquire();
        assertThat(other.lock(name).tryAcquire()).as("held right after acquisition").isEmpty();
        Optional<Lease> next = other.lock(name).tryAcquire(Tck.deadHolderBound(tck(), Tck.SHORT_LEASE));
        Duration freedAfter = Tck.elapsedSince(beforeGrant);
        assertThat(next).as("freed within lease + margin").isPresent();
        assertThat(freedAfter).as("not freed before the lease ran out")
                .isGreaterThanOrEqualTo(Tck.SHORT_LEASE.minusMillis(100));
        assertThat(lease.isValid()).isFalse();
        next.get().release();
    }

    @Test
    @DisplayName("§5.2 a holder with auto-renew keeps the lock well past its lease time")
    default void rule_5_2_renewingHolderKeepsLockPastLeaseTime() throws InterruptedException {
        LockStore holder = tck().client();
        LockStore other = tck().client();
        String name = tck().name("renewed");
        Lease lease = holder.lock(name, Tck.renewed()).acquire();
        Duration holdFor = Tck.SHORT_LEASE.multipliedBy(3);
        long until = System.nanoTime() + holdFor.toNanos();
        while (System.nanoTime() - until < 0) {
            // each attempt waits up to 300 ms, so the loop checks the lock all along the three lease times
            assertThat(other.lock(name).tryAcquire(Duration.ofMillis(300))).as("still held by the renewing holder")
                    .isEmpty();
        }
        assertThat(lease.isValid()).isTrue();
        lease.release();
        assertThat(other.lock(name).tryAcquire(Tck.PROMPTLY)).isPresent().get().satisfies(Lease::release);
    }

    @Test
    @DisplayName("§5.3 a holder whose process is killed (SIGKILL) frees the lock within lease time or session timeout "
            + "plus margin")
    default void rule_5_3_killedHolderFreesLock() throws InterruptedException {
        Tck.assumeSeparateJvms(tck());
        String name = tck().name("killed");
        LockStore other = tck().client();
        try (LockClientProcess holder = LockClientProcess.start(tck().storeUri(), "holder")) {
            long token = holder.acquire(name, Tck.SHORT_LEASE, true, Tck.HANG);
            assertThat(other.lock(name).tryAcquire()).as("held by the other process").isEmpty();
            holder.kill();
            long killed = System.nanoTime();
            Optional<Lease> next = other.lock(name).tryAcquire(Tck.deadHolderBound(tck(), Tck.SHORT_LEASE));
            assertThat(next).as("freed after the holder died, within " + Tck.deadHolderBound(tck(), Tck.SHORT_LEASE))
                    .isPresent();
            assertThat(next.get().fencingToken()).isGreaterThan(token);
            System.out.println("TCK §5.3: lock freed " + Tck.elapsedSince(killed).toMillis() + " ms after SIGKILL");
            next.get().release();
        }
    }

    @Test
    @DisplayName("§5.4 extend(d) prolongs a lease that does not auto-renew")
    default void rule_5_4_extendProlongsLease() throws InterruptedException {
        Tck.assumeTimeBound(tck());
        LockStore holder = tck().client();
        LockStore other = tck().client();
        String name = tck().name("extended");
        Lease lease = holder.lock(name, Tck.expiring()).acquire();
        assertThat(lease.extend(Duration.ofSeconds(20))).isTrue();
        CountDownLatch lost = new CountDownLatch(1);
        lease.onLost(e -> lost.countDown());
        // past the original lease time the extended lease still holds
        assertThat(lost.await(Tck.SHORT_LEASE.toMillis() * 2, TimeUnit.MILLISECONDS)).as("not lost").isFalse();
        assertThat(other.lock(name).tryAcquire()).isEmpty();
        assertThat(lease.isValid()).isTrue();
        lease.release();
    }
}
