package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockOptions;
import io.distlock.spi.Grant;
import io.distlock.spi.OthersWaiting;
import io.distlock.spi.Wait;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A streak of hand-overs that the store let go on past the bound (nobody else waited) must still end at the bound
 * once another client waits, however long it ran: its count of hand-overs in a row must not wrap around.
 */
class HandOverStreakCounterTest {

    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
    }

    @Test
    void aStreakThatRanPastIntegerMaxValueHandOversStillEndsWhenAnotherClientWaits() throws Exception {
        LocalGates gates = new LocalGates();
        LocalGates.Gate gate = gates.enter("long-streak");
        assertThat(gate.pass(LockOptions.defaults(), Wait.none())).isSameAs(LocalGates.Waiter.PASSED_AT_ONCE);
        Hold first = hold(gate, OthersWaiting.NO, 1);
        gate.held(first);
        // what an unbroken streak with nobody else waiting reaches after 2^31 - 1 hand-overs (days of a busy lock)
        setHandOversInARow(gate, Integer.MAX_VALUE);

        Future<LocalGates.Waiter> second = queue(gates, gate, 1);
        LocalGates.Waiter claimed = gate.claimForHandOver(first);
        assertThat(claimed).as("nobody else waits: the streak goes on").isNotNull();
        Hold secondHold = hold(gate, OthersWaiting.YES, 2); // another client has begun to wait meanwhile
        gate.handOut(claimed, new LocalGates.HandOff(secondHold.grant, System.nanoTime()));
        assertThat(second.get(20, TimeUnit.SECONDS).handOff()).isNotNull();
        gate.held(secondHold);

        queue(gates, gate, 1);
        assertThat(gate.claimForHandOver(secondHold))
                .as("past the bound with another client waiting: the lock is freed in the store, not handed over")
                .isNull();
    }

    private static Hold hold(LocalGates.Gate gate, OthersWaiting others, long fence) {
        Grant grant = new Grant("long-streak", "token-" + fence, fence, null, System.nanoTime(), others);
        return new Hold(grant, Thread.currentThread(), LockOptions.defaults(), false, gate);
    }

    /** A thread queued at {@code gate} (a user of {@code gates}), waiting until it is let through. */
    private Future<LocalGates.Waiter> queue(LocalGates gates, LocalGates.Gate gate, int queuedAfter) {
        Future<LocalGates.Waiter> waiter = pool.submit(() -> {
            gates.enter("long-streak");
            return gate.pass(LockOptions.defaults(), Wait.forever());
        });
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> gates.queued() == queuedAfter);
        return waiter;
    }

    private static void setHandOversInARow(LocalGates.Gate gate, int n) throws ReflectiveOperationException {
        Field count = LocalGates.Gate.class.getDeclaredField("handOversInARow");
        count.setAccessible(true);
        count.setInt(gate, n);
    }
}
