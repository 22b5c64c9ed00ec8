package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.spi.Grant;
import io.distlock.spi.ReleaseSignals;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On PostgreSQL a semaphore's release wakes a waiter of another process at once, by a notice, as a lock's does:
 * the other process is played by a store on the same table through a differently written URL, which shares no
 * in-JVM wake-ups with the holder. The waiter's store must hear the release (its semaphore's wake-up is signalled,
 * which nothing else in that store does while its waiter waits), and the waiter must hold the permit soon after
 * (semaphore waiters poll at most 250 ms apart whatever {@code pollMaxMillis} says, so the grant alone would not show
 * the notice; the probe does). A semaphore's notices and a lock's of the same name wake only their own kind.
 */
@ExtendWith(Databases.class)
class SemaphoreNoticesTest {

    /** Long polls for locks: what a semaphore waiter notices within the bound below, it was told. */
    private static final String SLOW_POLL = "distlock.pollMinMillis=10000&distlock.pollMaxMillis=10000";
    /** How soon after the release the waiter's store must hear of it: generous for a loaded machine. */
    private static final Duration WAKE_BOUND = Duration.ofSeconds(5);
    /** How soon after the release the waiter must hold the permit. */
    private static final Duration HOLD_BOUND = Duration.ofSeconds(2);
    private static final String NAME = "sem:across";

    private static JdbcBackend open(String uri) {
        return (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
    }

    @Test
    void aPermitReleasedInOneProcessWakesTheWaiterOfAnother() throws Exception {
        String options = "distlock.table=" + Databases.uniqueTable("semwake") + "&" + SLOW_POLL;
        String postgres = Databases.postgres();
        String otherProcess = postgres + (postgres.contains("?") ? "&" : "?")
                + "ApplicationName=distlock-other-process";
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (JdbcBackend holder = open(Databases.withOptions(postgres, options));
             JdbcBackend waiter = open(Databases.withOptions(otherProcess, options));
             ReleaseSignals.Ticket probe = waiter.permitTable().releaseProbe(NAME)) {
            assertThat(waiter.signals()).as("the waiter's store shares no wake-ups with the holder's")
                    .isNotSameAs(holder.signals());
            Grant held = holder.acquirePermit(NAME, 1, Duration.ofMinutes(1), Wait.none());
            assertThat(held).isNotNull();
            AtomicReference<Thread> waiting = new AtomicReference<>();
            Future<Grant> taken = pool.submit(() -> {
                waiting.set(Thread.currentThread());
                return waiter.acquirePermit(NAME, 1, Duration.ofMinutes(1), Wait.upTo(Duration.ofMinutes(1)));
            });
            // parked between two attempts: it found the semaphore full at least once
            await().atMost(Duration.ofSeconds(20)).until(() -> parkedOnSignals(waiting.get()));
            long releasedAt = System.nanoTime();
            assertThat(holder.releasePermit(held)).isTrue();
            assertThat(probe.await(WAKE_BOUND.toNanos()))
                    .as("the waiter's store heard of the release within %s (a notice)", WAKE_BOUND).isTrue();
            Grant grant = taken.get(WAKE_BOUND.toMillis(), TimeUnit.MILLISECONDS);
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - releasedAt);
            assertThat(grant).isNotNull();
            assertThat(Duration.ofMillis(tookMillis)).as("from the release to the waiter's grant")
                    .isLessThan(HOLD_BOUND);
            waiter.releasePermit(grant);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A release notice of semaphore {@code x} ({@code sr}) wakes the store's waiters of semaphore {@code x}, not those
     * of lock {@code x}; a lock's ({@code r}) the other way round. Aimed at the store's own channel by a peer, as a
     * releasing store of another process sends them; notices on one channel arrive in order, so when the second is
     * heard the first was read.
     */
    @Test
    void aSemaphoreNoticeAndALockNoticeOfOneNameWakeOnlyTheirOwnKind() throws Exception {
        try (NoticeStores stores = new NoticeStores("semkind")) {
            SharedSignals.Table signals = SharedSignals.Table.unshared();
            PostgresNotices store = stores.open(signals, "target");
            String peer = "e".repeat(16);
            try (ReleaseSignals.Ticket lockWaiter = signals.locks().ticket("x");
                 ReleaseSignals.Ticket semaphoreWaiter = signals.permits().ticket("x")) {
                notify("distlock_r_" + store.id(), "sr " + peer + " x");
                assertThat(semaphoreWaiter.await(WAKE_BOUND.toNanos())).as("semaphore x's waiter woken by sr").isTrue();
                notify("distlock_r_" + store.id(), "r " + peer + " x");
                assertThat(lockWaiter.await(WAKE_BOUND.toNanos())).as("lock x's waiter woken by r").isTrue();
                assertThat(semaphoreWaiter.await(0)).as("semaphore x's waiter woken by lock x's notice").isFalse();
                notify("distlock_r_" + store.id(), "sr " + peer + " x");
                assertThat(semaphoreWaiter.await(WAKE_BOUND.toNanos())).as("semaphore x's waiter woken again").isTrue();
                assertThat(lockWaiter.await(0)).as("lock x's waiter woken by semaphore x's notice").isFalse();
            }
        }
    }

    /** Sends {@code payload} on {@code channel}, as a peer would. */
    private static void notify(String channel, String payload) throws Exception {
        try (Connection c = DriverManager.getConnection(Databases.postgres());
             PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, ?)")) {
            ps.setString(1, channel);
            ps.setString(2, payload);
            ps.execute();
        }
    }

    private static boolean parkedOnSignals(Thread t) {
        return t != null && (t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING)
                && Arrays.stream(t.getStackTrace())
                        .anyMatch(f -> f.getClassName().startsWith("io.distlock.spi.ReleaseSignals"));
    }
}
