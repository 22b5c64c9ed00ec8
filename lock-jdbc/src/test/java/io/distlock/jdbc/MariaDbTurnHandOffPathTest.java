package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On the machine's MariaDB, two stores (two URL spellings, as two services) hand one lock back and forth through
 * turns, each lock held longer than HikariCP's 500 ms after which it checks a pooled connection before lending it
 * ({@code COM_PING}, a round trip): the hand-off's critical path (the holder's release, the next store's wake-up in
 * {@code GET_LOCK}, its attempt) borrows no pooled connection, so no such check delays it. The release of a lock
 * held through a turn is sent on the turn's own connection, and so is the attempt of the store whose turn came:
 * that connection has just answered {@code GET_LOCK}. (Before, both borrowed a pooled connection idle for the whole
 * hold, unless the store's row sweep, once a second, had used it meanwhile: up to two checks, two round trips, per
 * hand-off, 2-4 over 5 hand-offs seen; a queued store sends nothing while it waits.)
 */
@ExtendWith(Databases.class)
class MariaDbTurnHandOffPathTest {

    private static final Duration WITHIN = Duration.ofSeconds(10);
    /** Longer than HikariCP's window (500 ms) within which a connection returned to the pool is lent unchecked. */
    private static final long HOLD_MILLIS = 700;
    private static final int ROUNDS = 8;

    private final String table = Databases.uniqueTable("turnpath");
    private final String uri = Databases.withOptions(Databases.mariadb(), "distlock.table=" + table
            + "&distlock.pollMaxMillis=60000");
    private final ExecutorService waiter = Executors.newSingleThreadExecutor();
    private TurnLockWatch watch;

    @BeforeEach
    void connect() throws SQLException {
        watch = new TurnLockWatch(uri, table);
    }

    @AfterEach
    void close() throws Exception {
        waiter.shutdownNow();
        assertThat(waiter.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        watch.close();
    }

    @Test
    void aHandOffAfterALongHoldWaitsForNoPoolCheck() throws Exception {
        String name = "turn-path";
        String key = watch.key(name);
        // a check before the row sweep's first statement (a background thread's, once a second) is no hand-off's
        try (RequestCountingProxy pings = RequestCountingProxy.pings(uri, "SELECT name, CASE WHEN")) {
            String routed = pings.route(uri);
            try (LockStore a = LockStore.open(routed + "&connectionAttributes=path:a");
                    LockStore b = LockStore.open(routed + "&connectionAttributes=path:b")) {
                LockStore[] stores = {a, b};
                Lease held = a.lock(name).acquire(); // without a turn: the first hand-offs set the turns up
                int holder = 0;
                int counted = 0;
                long onPath = 0;
                for (int round = 0; round < ROUNDS + 2; round++) {
                    LockStore next = stores[1 - holder];
                    Future<Lease> taken = waiter.submit(() -> next.lock(name).tryAcquire(WITHIN).orElse(null));
                    boolean first = round == 0;
                    Awaitility.await().atMost(WITHIN).pollInterval(Duration.ofMillis(1))
                            .until(() -> first ? watch.held(key) : watch.queued(key));
                    // the hold itself (the scenario, not a synchronisation): both stores' pooled connections idle
                    TimeUnit.MILLISECONDS.sleep(HOLD_MILLIS);
                    long before = pings.requests();
                    held.release();
                    held = taken.get(WITHIN.toMillis(), TimeUnit.MILLISECONDS);
                    long checks = pings.requests() - before;
                    assertThat(held).as("round %d: the waiting store got the lock within %s", round, WITHIN)
                            .isNotNull();
                    if (round >= 2) { // both stores hold through turns from here on
                        counted++;
                        onPath += checks;
                    }
                    holder = 1 - holder;
                }
                held.release();
                System.out.printf(java.util.Locale.ROOT, "MariaDbTurnHandOffPathTest: %d pool checks (COM_PING) over"
                        + " %d hand-offs after %d ms holds%n", onPath, counted, HOLD_MILLIS);
                assertThat(onPath).as("pool checks (COM_PING) between the release and the waiter's grant over %d"
                        + " hand-offs after %d ms holds", counted, HOLD_MILLIS).isZero();
            }
        }
    }

    /** Whether a connection holds the turn lock of {@code key}. */
}
