package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.DistributedSemaphore;
import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.spi.Grant;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A semaphore waiter of a store told to poll seconds apart ({@code pollMinMillis = pollMaxMillis}, DEFECTS S71) is
 * still woken at once by what wakes it between polls: a local release, its deadline, its store's close; and it hears
 * of a permit whose holder vanished (no release, the lease ran out) no later than a lock waiter of the same store
 * hears of such a lock. On H2 in memory.
 */
class SemaphoreLongPollTest {

    private static final long POLL_MILLIS = 4000;
    private final ExecutorService pool = Executors.newFixedThreadPool(2);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private static String uri() {
        return "jdbc:h2:mem:" + Databases.uniqueTable("longpoll") + ";DB_CLOSE_DELAY=-1?distlock.pollMinMillis="
                + POLL_MILLIS + "&distlock.pollMaxMillis=" + POLL_MILLIS;
    }

    @Test
    void aWaiterPollingSecondsApartIsWokenAtOnceByALocalReleaseAndEndsAtItsDeadline() throws Exception {
        String uri = uri();
        try (JdbcBackend holder = open(uri); JdbcBackend waiter = open(uri)) {
            Grant held = holder.acquirePermit("s", 1, Duration.ofMinutes(1), Wait.none());
            long start = System.nanoTime();
            assertThat(waiter.acquirePermit("s", 1, Duration.ofMinutes(1), Wait.upTo(Duration.ofMillis(300))))
                    .isNull();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("a 300 ms wait polling 2-4 s apart")
                    .isLessThan(Duration.ofMillis(1500));

            AtomicReference<Thread> waiting = new AtomicReference<>();
            Future<Grant> taken = pool.submit(() -> {
                waiting.set(Thread.currentThread());
                return waiter.acquirePermit("s", 1, Duration.ofMinutes(1), Wait.upTo(Duration.ofMinutes(1)));
            });
            await().atMost(Duration.ofSeconds(20)).until(() -> parkedOnSignals(waiting.get()));
            long releasedAt = System.nanoTime();
            assertThat(holder.releasePermit(held)).isTrue();
            Grant grant = taken.get(10, TimeUnit.SECONDS);
            assertThat(grant).isNotNull();
            assertThat(Duration.ofNanos(System.nanoTime() - releasedAt)).as("from a local release to the grant")
                    .isLessThan(Duration.ofMillis(1500));
            waiter.releasePermit(grant);
        }
    }

    @Test
    void aWaiterPollingSecondsApartEndsPromptlyWhenItsStoreCloses() throws Exception {
        String uri = uri();
        try (LockStore holderStore = LockStore.open(uri)) {
            DistributedSemaphore held = holderStore.semaphore("s", 1);
            try (Lease lease = held.tryAcquire().orElseThrow()) {
                LockStore waiterStore = LockStore.open(uri);
                AtomicReference<Thread> waiting = new AtomicReference<>();
                Future<Optional<Lease>> taken = pool.submit(() -> {
                    waiting.set(Thread.currentThread());
                    return waiterStore.semaphore("s", 1).tryAcquire(Duration.ofMinutes(1));
                });
                await().atMost(Duration.ofSeconds(20)).until(() -> parkedOnSignals(waiting.get()));
                long closedAt = System.nanoTime();
                waiterStore.close();
                try {
                    taken.get(10, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    // a closed store may refuse the acquire: what counts is that it ended
                }
                assertThat(Duration.ofNanos(System.nanoTime() - closedAt)).as("from close() to the waiter's end")
                        .isLessThan(Duration.ofMillis(1500));
            }
        }
    }

    /**
     * A holder that vanished: its lease runs out in the database, nobody releases. The SQL store knows no holder's time
     * left for locks or permits (its attempts answer "held", not "held for so long"), so both waiters hear of the
     * expiry at their next poll, at most {@code pollMaxMillis} after it: semaphores are no later than locks.
     */
    @Test
    void anExpiredPermitIsFoundWithinOnePollAsAnExpiredLockIs() throws Exception {
        String uri = uri();
        try (JdbcBackend holder = open(uri); JdbcBackend waiter = open(uri)) {
            Duration lease = Duration.ofMillis(500);
            assertThat(holder.acquirePermit("s", 1, lease, Wait.none())).isNotNull();
            long permitExpiry = System.nanoTime() + lease.toNanos();
            Future<Grant> permit = pool.submit(() -> waiter.acquirePermit("s", 1, Duration.ofMinutes(1),
                    Wait.upTo(Duration.ofSeconds(30))));
            assertThat(holder.acquire("l", lease, Wait.none())).isNotNull();
            long lockExpiry = System.nanoTime() + lease.toNanos();
            Future<Grant> lock = pool.submit(() -> waiter.acquire("l", Duration.ofMinutes(1),
                    Wait.upTo(Duration.ofSeconds(30))));
            assertThat(permit.get(20, TimeUnit.SECONDS)).isNotNull();
            long permitLate = System.nanoTime() - permitExpiry;
            assertThat(lock.get(20, TimeUnit.SECONDS)).isNotNull();
            long lockLate = System.nanoTime() - lockExpiry;
            Duration bound = Duration.ofMillis(POLL_MILLIS + 1500);
            assertThat(Duration.ofNanos(lockLate)).as("an expired lock found after").isLessThan(bound);
            assertThat(Duration.ofNanos(permitLate)).as("an expired permit found after (lock: %s ms)",
                    TimeUnit.NANOSECONDS.toMillis(lockLate)).isLessThan(bound);
        }
    }

    private static boolean parkedOnSignals(Thread t) {
        return t != null && (t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING)
                && Arrays.stream(t.getStackTrace())
                        .anyMatch(f -> f.getClassName().startsWith("io.distlock.spi.ReleaseSignals"));
    }

    private static JdbcBackend open(String uri) {
        return (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
    }
}
