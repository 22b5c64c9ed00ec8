package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A release wakes a waiter at once, not at its next poll: with the poll pause set to 30-60 s, a waiter in the same
 * store (queued behind the holder) and a waiter in another store of the same table in this JVM (parked between two
 * attempts) both acquire within a few seconds of the release, on every database; on PostgreSQL so does a waiter
 * of another process.
 */
@ExtendWith(Databases.class)
class WakeUpTest {

    /** The waiters' pause between attempts: 30 to 60 s (jittered), far above the bound asserted below. */
    private static final String SLOW_POLL = "distlock.pollMinMillis=60000&distlock.pollMaxMillis=60000";
    /** How soon after the release the waiter must hold the lock: generous for a loaded machine, 6x under the poll. */
    private static final Duration WAKE_BOUND = Duration.ofSeconds(5);

    /** The minimum hold of the releaseAfter cases: past the moment the waiter is seen parked, as a rule. */
    private static final Duration MIN_HELD = Duration.ofSeconds(4);

    private static H2Server h2;

    @BeforeAll
    static void startH2() throws Exception {
        h2 = new H2Server("wake_" + System.nanoTime()).start();
    }

    @AfterAll
    static void stopH2() {
        h2.close();
    }

    static Stream<String> databases() {
        return Stream.of(Databases.mysql(), Databases.mariadb(), Databases.postgres(), "h2");
    }

    private static String uri(String database) {
        String base = database.equals("h2") ? h2.url() : database;
        return Databases.withOptions(base, "distlock.table=" + Databases.uniqueTable("wake") + "&" + SLOW_POLL);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aWaiterOfTheSameStoreTakesTheLockAtOnceAfterTheRelease(String database) throws Exception {
        try (LockStore store = LockStore.open(uri(database))) {
            Lease held = store.lock("wake:same").acquire();
            assertWokenAtRelease(held, () -> store.lock("wake:same").acquire(), false);
        }
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aWaiterOfAnotherStoreOfTheSameTableTakesTheLockAtOnceAfterTheRelease(String database) throws Exception {
        String uri = uri(database);
        try (LockStore holder = LockStore.open(uri); LockStore waiter = LockStore.open(uri)) {
            Lease held = holder.lock("wake:other").acquire();
            assertWokenAtRelease(held, () -> waiter.lock("wake:other").acquire(), true);
        }
    }

    /**
     * {@code releaseAfter} wakes such a waiter too when its time has passed: the waiter, parked after it was refused
     * under the 30 s lease, holds the lock within the bound of the moment {@code minHeld} ran out.
     */
    @ParameterizedTest
    @MethodSource("databases")
    void aWaiterOfAnotherStoreTakesTheLockAtOnceAfterTheReleaseAfterTime(String database) throws Exception {
        String uri = uri(database);
        try (LockStore holder = LockStore.open(uri); LockStore waiter = LockStore.open(uri)) {
            long acquired = System.nanoTime();
            Lease held = holder.lock("wake:after").acquire();
            assertWokenAt(() -> releaseAfter(held, acquired), () -> waiter.lock("wake:after").acquire(), true);
        }
    }

    /** As above for a waiter of another process on PostgreSQL (woken by a notice). */
    @org.junit.jupiter.api.Test
    void aWaiterOfAnotherProcessIsWokenByAPostgresNoticeAfterTheReleaseAfterTime() throws Exception {
        String table = Databases.uniqueTable("wake");
        String postgres = Databases.postgres();
        String options = "distlock.table=" + table + "&" + SLOW_POLL;
        try (LockStore holder = LockStore.open(Databases.withOptions(postgres, options));
             LockStore waiter = LockStore.open(Databases.withOptions(postgres + (postgres.contains("?") ? "&" : "?")
                     + "ApplicationName=distlock-other-process", options))) {
            long acquired = System.nanoTime();
            Lease held = holder.lock("wake:process-after").acquire();
            assertWokenAt(() -> releaseAfter(held, acquired), () -> waiter.lock("wake:process-after").acquire(),
                    true);
        }
    }

    /** {@code releaseAfter(MIN_HELD)} on {@code held}; returns when the lock is due to free (nanoTime). */
    private static long releaseAfter(Lease held, long acquired) {
        held.releaseAfter(MIN_HELD);
        return Math.max(System.nanoTime(), acquired + MIN_HELD.toNanos());
    }

    /**
     * On PostgreSQL a release also wakes a waiter of another process (LISTEN/NOTIFY). The other process is played by
     * a store on the same table through a differently written URL, which shares no in-JVM wake-ups with the holder.
     */
    @org.junit.jupiter.api.Test
    void aWaiterOfAnotherProcessIsWokenByAPostgresNotice() throws Exception {
        String table = Databases.uniqueTable("wake");
        String postgres = Databases.postgres();
        String options = "distlock.table=" + table + "&" + SLOW_POLL;
        String holderUri = Databases.withOptions(postgres, options);
        String waiterUri = Databases.withOptions(postgres + (postgres.contains("?") ? "&" : "?")
                + "ApplicationName=distlock-other-process", options);
        try (LockStore holder = LockStore.open(holderUri); LockStore waiter = LockStore.open(waiterUri)) {
            Lease held = holder.lock("wake:process").acquire();
            assertWokenAtRelease(held, () -> waiter.lock("wake:process").acquire(), true);
        }
    }

    /**
     * Starts {@code acquire} on a thread, waits until that thread is parked (between two store attempts if
     * {@code betweenAttempts}), releases {@code held}, and checks that the waiter holds the lock within
     * {@link #WAKE_BOUND} of the release.
     */
    private static void assertWokenAtRelease(Lease held, java.util.concurrent.Callable<Lease> acquire,
                                             boolean betweenAttempts) throws Exception {
        assertWokenAt(() -> {
            long releasedAt = System.nanoTime();
            held.release();
            return releasedAt;
        }, acquire, betweenAttempts);
    }

    /**
     * As {@link #assertWokenAtRelease}, with {@code release} freeing the lock (now or later) and returning the
     * moment (nanoTime) the lock is due to free; the bound counts from then.
     */
    private static void assertWokenAt(java.util.function.LongSupplier release,
                                      java.util.concurrent.Callable<Lease> acquire,
                                      boolean betweenAttempts) throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            AtomicReference<Thread> waiterThread = new AtomicReference<>();
            CompletableFuture<Long> acquiredAt = new CompletableFuture<>();
            Future<?> waiter = pool.submit(() -> {
                waiterThread.set(Thread.currentThread());
                try (Lease lease = acquire.call()) {
                    acquiredAt.complete(System.nanoTime());
                    assertThat(lease.isValid()).isTrue();
                }
                return null;
            });
            await().atMost(Duration.ofSeconds(20)).until(() -> parked(waiterThread.get(), betweenAttempts));
            long releasedAt = release.getAsLong();
            long woken;
            try {
                woken = acquiredAt.get(Math.max(0, releasedAt - System.nanoTime()) / 1_000_000
                        + WAKE_BOUND.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError("the waiter did not hold the lock within " + WAKE_BOUND
                        + " of the release (it polls every 30-60 s)", e);
            }
            assertThat(Duration.ofNanos(woken - releasedAt)).isLessThan(WAKE_BOUND);
            waiter.get(10, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
    }

    private static boolean parked(Thread t, boolean betweenAttempts) {
        if (t == null || (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING)) {
            return false;
        }
        return !betweenAttempts || Arrays.stream(t.getStackTrace())
                .anyMatch(f -> f.getClassName().startsWith("io.distlock.spi.ReleaseSignals"));
    }
}
