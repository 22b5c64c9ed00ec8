package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockException;
import io.distlock.StoreUnavailableException;
import io.distlock.jdbc.OneBusyConnection.Call;
import io.distlock.jdbc.OneBusyConnection.Outcome;
import io.distlock.spi.Grant;
import io.distlock.spi.Renewal;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Calls interrupted while they wait for the store's pool to hand them a connection (PostgreSQL, poolSize 1, the one
 * connection busy): HikariCP gives up with a plain {@code SQLException} caused by the InterruptedException and sets
 * the flag again. Each must end as an interrupt, as in any other wait of it, never as an SQL error of the database
 * (DEFECTS S86); the calls the core runs without the caller's flag (a release, a hand-over, the renewal of extend and
 * releaseAfter, a single try) reach the database instead (S87, S102, S104), within a bound however many interrupts
 * come (S103).
 */
@ExtendWith(Databases.class)
class PoolWaitInterruptTest {


    @Test
    void aFirstSemaphoreAcquireInterruptedWhileWaitingForAPooledConnectionRaisesInterruptedException()
            throws Exception {
        Outcome o = interruptedInThePoolWait(
                s -> t -> t.acquirePermit("s", 1, Duration.ofSeconds(30), twentySeconds()));
        assertThat(o.raised()).as("the first acquire (the permit table's probe waits)")
                .isInstanceOf(InterruptedException.class);
        assertThat(o.flagAfter()).as("the flag after InterruptedException, cleared as by any").isFalse();
    }

    @Test
    void aSemaphoreAcquireInterruptedWhileWaitingForAPooledConnectionRaisesInterruptedException() throws Exception {
        Outcome o = interruptedInThePoolWait(
                ready(t -> t.acquirePermit("s", 1, Duration.ofSeconds(30), twentySeconds())));
        assertThat(o.raised()).as("an acquire on a ready permit table (its attempt waits)")
                .isInstanceOf(InterruptedException.class);
        assertThat(o.flagAfter()).as("the flag after InterruptedException, cleared as by any").isFalse();
    }

    @Test
    void aLockAcquireInterruptedWhileWaitingForAPooledConnectionRaisesInterruptedException() throws Exception {
        Outcome o = interruptedInThePoolWait(ready(t -> t.acquire("l", Duration.ofSeconds(30), twentySeconds())));
        assertThat(o.raised()).as("a lock acquire").isInstanceOf(InterruptedException.class);
        assertThat(o.flagAfter()).as("the flag after InterruptedException, cleared as by any").isFalse();
    }

    @Test
    void aPermitCountInterruptedWhileWaitingForAPooledConnectionFailsAsAnInterrupt() throws Exception {
        Outcome o = interruptedInThePoolWait(ready(t -> t.heldPermits("s")));
        assertThat(o.raised()).as("a permit count, which cannot throw InterruptedException")
                .isInstanceOf(LockException.class).isNotInstanceOf(StoreUnavailableException.class)
                .hasMessageStartingWith("interrupted while counting the permits of 's'")
                .hasCauseInstanceOf(InterruptedException.class);
        assertThat(o.flagAfter()).as("the interrupt flag after the failed count").isTrue();
    }

    /**
     * A lock's release interrupted while it waits for a pooled connection still frees the lock once the connection
     * comes (the flag set again afterwards): a release must not fail because its thread was interrupted, or the lock
     * stays held by nobody alive until its lease's end (DEFECTS S87).
     */
    @Test
    void aLockReleaseInterruptedWhileWaitingForAPooledConnectionStillFreesTheLock() throws Exception {
        Outcome o = interruptedInThePoolWait(s -> {
            Grant grant = s.acquire("l", Duration.ofSeconds(60), Wait.none());
            return t -> t.release(grant);
        });
        assertThat(o.raised()).as("the interrupted release's failure").isNull();
        assertThat(o.flagAfter()).as("the interrupt flag after the release").isTrue();
    }

    /** As {@link #aLockReleaseInterruptedWhileWaitingForAPooledConnectionStillFreesTheLock}, for a permit. */
    @Test
    void aPermitReleaseInterruptedWhileWaitingForAPooledConnectionStillFreesThePermit() throws Exception {
        Outcome o = interruptedInThePoolWait(s -> {
            Grant grant = s.acquirePermit("s", 1, Duration.ofSeconds(60), Wait.none());
            return t -> t.releasePermit(grant);
        });
        assertThat(o.raised()).as("the interrupted release's failure").isNull();
        assertThat(o.flagAfter()).as("the interrupt flag after the release").isTrue();
    }

    /**
     * A hand-over is a release that passes the lock to a local waiter: interrupted while it waits for a pooled
     * connection, it still passes the lock on (the flag set again afterwards), as the release does (DEFECTS S102).
     */
    @Test
    void aHandOverInterruptedWhileWaitingForAPooledConnectionStillPassesTheLockOn() throws Exception {
        interruptedInThePoolWait(s -> {
            Grant held = s.acquire("l", Duration.ofSeconds(60), Wait.none());
            return t -> t.handOver(held, Duration.ofSeconds(60), Thread.currentThread());
        }, (o, after) -> {
            assertThat(o.raised()).as("the interrupted hand-over's failure").isNull();
            assertThat(o.flagAfter()).as("the interrupt flag after the hand-over").isTrue();
            assertThat(o.result()).as("the handed-over grant").isInstanceOf(Grant.class);
            assertThat(after.release((Grant) o.result())).as("the lock is held for the new grant").isTrue();
        });
    }

    /** The renewal of extend and releaseAfter (run without the caller's flag) reaches the database (S102). */
    @Test
    void aRenewalInterruptedWhileWaitingForAPooledConnectionStillRenews() throws Exception {
        Grant[] held = new Grant[1];
        interruptedInThePoolWait(s -> {
            held[0] = s.acquire("l", Duration.ofSeconds(60), Wait.none());
            return t -> t.renew(List.of(new Renewal(held[0], Duration.ofSeconds(60))));
        }, (o, after) -> {
            assertThat(o.raised()).as("the interrupted renewal's failure").isNull();
            assertThat(o.result()).as("the leases the store no longer had").isEqualTo(Set.of());
            assertThat(o.flagAfter()).as("the interrupt flag after the renewal").isTrue();
            assertThat(after.release(held[0])).as("the renewed lock is held").isTrue();
        });
    }

    /** As {@link #aRenewalInterruptedWhileWaitingForAPooledConnectionStillRenews}, for a permit. */
    @Test
    void aPermitRenewalInterruptedWhileWaitingForAPooledConnectionStillRenews() throws Exception {
        Grant[] held = new Grant[1];
        interruptedInThePoolWait(s -> {
            held[0] = s.acquirePermit("s", 1, Duration.ofSeconds(60), Wait.none());
            return t -> t.renewPermits(List.of(new Renewal(held[0], Duration.ofSeconds(60))));
        }, (o, after) -> {
            assertThat(o.raised()).as("the interrupted renewal's failure").isNull();
            assertThat(o.result()).as("the permits the store no longer had").isEqualTo(Set.of());
            assertThat(o.flagAfter()).as("the interrupt flag after the renewal").isTrue();
            assertThat(after.releasePermit(held[0])).as("the renewed permit is held").isTrue();
        });
    }

    /**
     * A single try ignores the interrupt, as {@code Lock.tryLock()} does: interrupted while it waits for a pooled
     * connection, it still answers for the free lock, and gives the flag back (DEFECTS S104).
     */
    @Test
    void aSingleTryInterruptedWhileWaitingForAPooledConnectionStillAnswers() throws Exception {
        interruptedInThePoolWait(ready(t -> t.acquire("l", Duration.ofSeconds(60), Wait.none())), (o, after) -> {
            assertThat(o.raised()).as("the single try's failure").isNull();
            assertThat(o.result()).as("the single try's grant of a free lock").isInstanceOf(Grant.class);
            assertThat(o.flagAfter()).as("the interrupt flag after the single try").isTrue();
            assertThat(after.release((Grant) o.result())).as("the granted lock is held").isTrue();
        });
    }

    /** As {@link #aSingleTryInterruptedWhileWaitingForAPooledConnectionStillAnswers}, for a permit. */
    @Test
    void aSinglePermitTryInterruptedWhileWaitingForAPooledConnectionStillAnswers() throws Exception {
        interruptedInThePoolWait(ready(t -> t.acquirePermit("s", 1, Duration.ofSeconds(60), Wait.none())),
                (o, after) -> {
                    assertThat(o.raised()).as("the single try's failure").isNull();
                    assertThat(o.result()).as("the single try's grant of a free permit").isInstanceOf(Grant.class);
                    assertThat(o.flagAfter()).as("the interrupt flag after the single try").isTrue();
                    assertThat(after.releasePermit((Grant) o.result())).as("the granted permit is held").isTrue();
                });
    }

    /**
     * As {@link #aSinglePermitTryInterruptedWhileWaitingForAPooledConnectionStillAnswers}, for the store's first
     * semaphore call, whose pool wait is for the permit table's probe: a single try still answers for the free permit
     * (DEFECTS S106).
     */
    @Test
    void aFirstSinglePermitTryInterruptedWhileWaitingForAPooledConnectionStillAnswers() throws Exception {
        interruptedInThePoolWait(s -> t -> t.acquirePermit("s", 1, Duration.ofSeconds(60), Wait.none()),
                (o, after) -> {
                    assertThat(o.raised()).as("the first single try's failure").isNull();
                    assertThat(o.result()).as("the first single try's grant of a free permit")
                            .isInstanceOf(Grant.class);
                    assertThat(o.flagAfter()).as("the interrupt flag after the single try").isTrue();
                    assertThat(after.releasePermit((Grant) o.result())).as("the granted permit is held").isTrue();
                });
    }

    /**
     * A release whose every pool wait is interrupted while the one connection stays busy gives up once the pool's
     * connect timeout has passed since the first interrupted wait, saying so, instead of waiting again forever
     * (DEFECTS S103); the flag is set afterwards, and the lock is released once the connection came back.
     */
    @Test
    void aReleaseInterruptedWithoutPauseEndsWithinItsBound() throws Exception {
        try (OneBusyConnection busy = OneBusyConnection.open("pwi", 2000)) {
            JdbcBackend store = busy.store();
            Grant held = store.acquire("l", Duration.ofSeconds(60), Wait.none());
            busy.hold();
            long start = System.nanoTime();
            Outcome o = busy.underInterruptStorm(s -> s.release(held), Duration.ofSeconds(20));
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(o.raised()).as("the release whose every pool wait was interrupted")
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("no connection of its pool came within its wait of 2000 ms");
            assertThat(o.flagAfter()).as("the interrupt flag after the failed release").isTrue();
            assertThat(tookMs).as("ms the release kept waiting again under interrupts (pool wait 2 s)")
                    .isLessThan(10_000);
            busy.letGo();
            assertThat(store.release(held)).as("the lock, released once the connection came back").isTrue();
        }
    }

    /** A wait of 20 seconds from now. */
    private static Wait twentySeconds() {
        return Wait.upTo(Duration.ofSeconds(20));
    }

    /** {@code call}, once the permit table was made. */
    private static Prepare ready(Call call) {
        return s -> {
            s.heldPermits("s");
            return call;
        };
    }

    /** Readies the store and returns the call to interrupt. */
    @FunctionalInterface
    private interface Prepare {
        Call on(JdbcBackend store) throws Exception;
    }

    /** Checks the outcome, and the store once its connection came back, before the harness's own checks. */
    @FunctionalInterface
    private interface Check {
        void check(Outcome outcome, JdbcBackend after) throws Exception;
    }

    /**
     * Runs {@code call} while the one pooled connection is busy, interrupts it once it waits in the pool, and checks
     * that no permit nor the lock is left held and that the store works afterwards.
     */
    private static Outcome interruptedInThePoolWait(Prepare prepare) throws Exception {
        return interruptedInThePoolWait(prepare, (o, after) -> { });
    }

    /**
     * As {@link #interruptedInThePoolWait(Prepare)}, running {@code check} once the connection came back (to release
     * what the call was granted, say) before the harness's own checks.
     */
    private static Outcome interruptedInThePoolWait(Prepare prepare, Check check) throws Exception {
        try (OneBusyConnection busy = OneBusyConnection.open("pwi", 30000)) {
            JdbcBackend store = busy.store();
            Call call = prepare.on(store);
            busy.hold();
            Outcome o = busy.interruptedOnceInThePoolWait(call);
            check.check(o, store);
            assertThat(store.heldPermits("s")).as("permits held after the interrupted call").isZero();
            assertThat(store.acquire("l", Duration.ofSeconds(30), Wait.none()))
                    .as("the lock after the interrupted call").isNotNull();
            return o;
        }
    }
}
