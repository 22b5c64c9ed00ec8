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
    private final Names names = new Names();

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
    }

    @Test
    void aStreakThatRanPastIntegerMaxValueHandOversStillEndsWhenAnotherClientWaits() throws Exception {
        NameState state = names.enter("long-streak", false);
        assertThat(state.pass(1, LockOptions.defaults(), Wait.none())).isSameAs(NameState.Waiter.PASSED_AT_ONCE);
        state.begin(); // its store call
        Hold first = hold(state, OthersWaiting.NO, 1);
        state.registered(first, true);
        // what an unbroken streak with nobody else waiting reaches after 2^31 - 1 hand-overs (days of a busy lock)
        setHandOversInARow(state, Integer.MAX_VALUE);

        Future<NameState.Waiter> second = queue(state, 1);
        NameState.Waiter claimed = state.claimForHandOver(first);
        assertThat(claimed).as("nobody else waits: the streak goes on").isNotNull();
        Hold secondHold = hold(state, OthersWaiting.YES, 2); // another client has begun to wait meanwhile
        state.handOut(claimed, new NameState.Waiter.HandOff(secondHold.grant, System.nanoTime(), 0));
        assertThat(second.get(20, TimeUnit.SECONDS).handOff()).isNotNull();
        state.registered(secondHold, true);

        queue(state, 1);
        assertThat(state.claimForHandOver(secondHold))
                .as("past the bound with another client waiting: the lock is freed in the store, not handed over")
                .isNull();
    }

    private static Hold hold(NameState state, OthersWaiting others, long fence) {
        Grant grant = new Grant("long-streak", "token-" + fence, fence, null, System.nanoTime(), others);
        return new Hold(grant, Thread.currentThread(), LockOptions.defaults(), false, state);
    }

    /** A thread queued at {@code state} (a user of {@link #names}), waiting until it is let through. */
    private Future<NameState.Waiter> queue(NameState state, int queuedAfter) {
        Future<NameState.Waiter> waiter = pool.submit(() -> {
            names.enter("long-streak", false);
            return state.pass(1, LockOptions.defaults(), Wait.forever());
        });
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> names.queued() == queuedAfter);
        return waiter;
    }

    private static void setHandOversInARow(NameState state, int n) throws ReflectiveOperationException {
        Field count = NameState.class.getDeclaredField("handOversInARow");
        count.setAccessible(true);
        count.setInt(state, n);
    }
}
