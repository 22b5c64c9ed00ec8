package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.StoreUnavailableException;
import io.distlock.jdbc.OneBusyConnection.Call;
import io.distlock.jdbc.OneBusyConnection.Outcome;
import io.distlock.spi.Grant;
import io.distlock.spi.Wait;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A single try (lock or permit) whose every pool wait is interrupted while the one pooled connection stays busy
 * (PostgreSQL, poolSize 1): S104 waits again, S103 gives up once the connect timeout has passed. The give-up is an
 * outage (no connection came), so the single try must report it as one, never as "not granted" for a free lock or
 * permit (DEFECTS S105).
 */
@ExtendWith(Databases.class)
class SingleTryGiveUpTest {

    @Test
    void aLockSingleTryThatGaveUpWaitingReportsTheOutage() throws Exception {
        Outcome o = underInterruptStorm(s -> s.acquire("l", Duration.ofSeconds(60), Wait.none()));
        assertThat(o.raised())
                .as("the single try of a free lock that got no connection (it answered %s)", o.result())
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("no connection of its pool came within its wait of 2000 ms");
        assertThat(o.flagAfter()).as("the interrupt flag after the single try").isTrue();
    }

    @Test
    void aPermitSingleTryThatGaveUpWaitingReportsTheOutage() throws Exception {
        Outcome o = underInterruptStorm(s -> s.acquirePermit("s", 1, Duration.ofSeconds(60), Wait.none()));
        assertThat(o.raised())
                .as("the single try of a free permit that got no connection (it answered %s)", o.result())
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("no connection of its pool came within its wait of 2000 ms");
        assertThat(o.flagAfter()).as("the interrupt flag after the single try").isTrue();
    }

    /**
     * Runs {@code call} on a store whose one connection is busy, interrupting its thread without pause until it
     * ends; then checks that the store works and that nothing was left held.
     */
    private static Outcome underInterruptStorm(Call call) throws Exception {
        try (OneBusyConnection busy = OneBusyConnection.open("stg", 2000)) {
            JdbcBackend store = busy.store();
            store.heldPermits("s"); // the permit table made, so the call waits in the pool only
            busy.hold();
            Outcome o = busy.underInterruptStorm(call, Duration.ofSeconds(20));
            busy.letGo();
            if (o.result() instanceof Grant granted) {
                store.release(granted);
            }
            assertThat(store.heldPermits("s")).as("permits held after the single try").isZero();
            Grant after = store.acquire("l", Duration.ofSeconds(30), Wait.none());
            assertThat(after).as("the lock after the single try").isNotNull();
            store.release(after);
            return o;
        }
    }
}
