package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.spi.Grant;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Two losses of one hold reported at once (an expiry seen by the renewal while the store reports the node gone, say):
 * the one that wins marks the hold lost, and every reader sees its reason: the listeners and later uses of the lease
 * throw the same exception, not the loser's written over it.
 */
class LostCauseRaceTest {

    @Test
    void theListenersAndLaterUsesSeeTheReasonOfTheLossThatWon() throws Exception {
        int rounds = 20_000;
        int disagreed = 0;
        for (int round = 0; round < rounds; round++) {
            Hold hold = new Hold(new Grant("raced", "token", 1, null), Thread.currentThread(), LockOptions.defaults(),
                    false, new NameState(new Names(), "raced"));
            AtomicReference<LockLostException> told = new AtomicReference<>();
            hold.addListener(told::set);
            CyclicBarrier start = new CyclicBarrier(2);
            Thread other = new Thread(() -> {
                await(start);
                hold.markLost("second");
            });
            other.start();
            await(start);
            hold.markLost("first");
            other.join();
            if (told.get() != hold.lostCause()) {
                disagreed++;
            }
        }
        assertThat(disagreed).as("rounds of %s in which the listener and the lease saw different reasons", rounds)
                .isZero();
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
