package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.spi.ReleaseSignals;
import io.distlock.spi.StoreUri;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The PostgreSQL listener's connection dropped by the network without a word to either end (its proxy pair frozen,
 * the pool's connections untouched), as a middlebox that forgets a quiet connection does: the listener only reads,
 * so nothing fails by itself. A release elsewhere must still wake a waiter of that store well before its next poll.
 */
@ExtendWith(Databases.class)
class PostgresDeafListenerTest {

    /** The waiter's pause between attempts: 30 to 60 s (jittered), far above the bound asserted below. */
    private static final String SLOW_POLL = "distlock.pollMinMillis=60000&distlock.pollMaxMillis=60000";
    private static final String SOCKET_TIMEOUT = "distlock.socketTimeoutMillis=5s";

    /**
     * The listener's check of its connection ({@link PostgresNotices#LIVENESS_CHECK_MILLIS}), its read of at most
     * the 5 s socket timeout, the pause before reconnecting ({@link PostgresNotices#RECONNECT_PAUSE_MILLIS}), then
     * 3 s for the reconnection and the waiter's attempt on a loaded machine. (It took 10.8 s, three runs.)
     */
    private static final Duration WAKE_BOUND = Duration.ofMillis(PostgresNotices.LIVENESS_CHECK_MILLIS)
            .plusSeconds(5).plusMillis(PostgresNotices.RECONNECT_PAUSE_MILLIS).plusSeconds(3);

    @Test
    void aWaiterWhoseListenerWentDeafIsStillWokenByARemoteRelease() throws Exception {
        String table = Databases.uniqueTable("deaf");
        String options = "distlock.table=" + table + "&" + SLOW_POLL + "&" + SOCKET_TIMEOUT;
        String direct = Databases.withOptions(Databases.postgres(), options);
        try (FrozenPath path = new FrozenPath(direct); LockStore holder = LockStore.open(direct)) {
            Set<InetSocketAddress> before = path.clients();
            // another port in its URL: the waiter shares no in-JVM wake-ups with the holder, as another process
            try (LockStore waiter = LockStore.open(path.through(direct))) {
                InetSocketAddress listener = listenerOf(path, before, table);
                path.freeze(listener);

                String name = "deaf:ledger";
                Lease held = holder.lock(name).acquire();
                CompletableFuture<Optional<Lease>> waiting = CompletableFuture.supplyAsync(() -> {
                    try {
                        return waiter.lock(name).tryAcquire(WAKE_BOUND.plus(WAKE_BOUND));
                    } catch (InterruptedException e) {
                        throw new CompletionException(e);
                    }
                });
                Awaitility.await("the waiter parked after finding the lock held").atMost(Duration.ofSeconds(10))
                        .until(() -> {
                            ReleaseSignals signals = signalsOf(path.through(direct), table);
                            return signals != null && signals.hasWaiters(name);
                        });
                long released = System.nanoTime();
                held.release();
                Optional<Lease> got = waiting.get(WAKE_BOUND.plus(WAKE_BOUND).toMillis() + 5000, TimeUnit.MILLISECONDS);
                Duration took = Duration.ofNanos(System.nanoTime() - released);
                assertThat(got).as("the waiter holds the lock " + took.toMillis() + " ms after the release")
                        .isPresent();
                assertThat(took).as("woken after the release, not at its next poll (30-60 s)").isLessThan(WAKE_BOUND);
                got.get().release();
            }
        }
    }

    /** The in-JVM release signals of the stores opened on {@code uri}, where a parked waiter shows. */
    private static ReleaseSignals signalsOf(String uri, String table) {
        return SharedSignals.peek(StoreUri.redact(JdbcSettings.parse(StoreUri.parse(uri)).driverUrl()), table);
    }

    /**
     * The connection of the waiter's listener among those it opened: a notice on the table's channel from outside
     * (a payload no store reads) moves bytes on the listener's connection only.
     */
    private static InetSocketAddress listenerOf(FrozenPath path, Set<InetSocketAddress> before, String table)
            throws Exception {
        Set<InetSocketAddress> opened = path.clients();
        opened.removeAll(before);
        Map<InetSocketAddress, Long> bytes = opened.stream().collect(Collectors.toMap(a -> a, path::bytes));
        try (Connection c = DriverManager.getConnection(Databases.postgres()); Statement s = c.createStatement()) {
            s.execute("NOTIFY \"" + PostgresNotices.channel(table) + "\", 'probe'");
        }
        return Awaitility.await("the listener's connection among " + opened).atMost(Duration.ofSeconds(5))
                .until(() -> opened.stream().filter(a -> path.bytes(a) > bytes.get(a)).toList(), l -> l.size() == 1)
                .get(0);
    }
}
