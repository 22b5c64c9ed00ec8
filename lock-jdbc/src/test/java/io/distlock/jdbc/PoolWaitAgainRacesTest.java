package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.Grant;
import io.distlock.spi.Renewal;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What happens meanwhile to a call that waits again for a pooled connection after an interrupt (S102, S104;
 * PostgreSQL, poolSize 1, the one connection held by the test): the lease it renews released and the lock taken by
 * another client, or its store closed. The retry must renew nothing of the other client's and must end at the close.
 */
@ExtendWith(Databases.class)
class PoolWaitAgainRacesTest {

    /**
     * A renewal waiting again that gets its connection only after its lease was released and the lock granted to
     * another client reports the lease lost and leaves the other client's lock as it was (its WHERE names the token).
     */
    @Test
    void aRenewalWaitingAgainAfterItsLeaseWasReleasedAndTakenRenewsNothing() throws Exception {
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + Databases.uniqueTable("pwa"));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch giveBack = new CountDownLatch(1);
        try (JdbcBackend store = (JdbcBackend) new JdbcLockStoreProvider().open(
                StoreUri.parse(uri + "&distlock.poolSize=1&distlock.connectTimeoutMillis=30000"));
                JdbcBackend other = (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri))) {
            Grant mine = store.acquire("l", Duration.ofSeconds(60), Wait.none());
            Future<?> holder = holdTheOneConnection(pool, store, giveBack);
            AtomicReference<Thread> thread = new AtomicReference<>();
            CompletableFuture<Set<Grant>> renewed = new CompletableFuture<>();
            pool.submit(() -> {
                thread.set(Thread.currentThread());
                try {
                    renewed.complete(store.renew(List.of(new Renewal(mine, Duration.ofSeconds(60)))));
                } catch (Throwable t) {
                    renewed.completeExceptionally(t);
                }
            });
            awaitWaitingInThePool(thread);
            thread.get().interrupt();
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> renewed.isDone() || !thread.get().isInterrupted());
            assertThat(other.release(mine)).as("the lease released meanwhile (by its token)").isTrue();
            Grant theirs = other.acquire("l", Duration.ofSeconds(5), Wait.none());
            assertThat(theirs).as("the lock taken by the other client").isNotNull();
            giveBack.countDown();
            holder.get(10, TimeUnit.SECONDS);
            assertThat(renewed.get(10, TimeUnit.SECONDS)).as("the leases the late renewal found gone")
                    .containsExactly(mine);
            assertThat(other.release(theirs)).as("the other client's lock, still its own").isTrue();
            assertThat(store.release(mine)).as("the late renewal resurrected nothing").isFalse();
        } finally {
            giveBack.countDown();
            pool.shutdownNow();
        }
    }

    /**
     * A single try waiting again under interrupts that never stop ends when its store is closed, well within its
     * bound (connect timeout 30 s), with the store's closed failure, and takes nothing in the database.
     */
    @Test
    void aSingleTryWaitingAgainEndsAtItsStoresClose() throws Exception {
        String table = Databases.uniqueTable("pwa");
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + table);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        CountDownLatch giveBack = new CountDownLatch(1);
        AtomicBoolean storm = new AtomicBoolean(true);
        try (JdbcBackend other = (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri))) {
            JdbcBackend store = (JdbcBackend) new JdbcLockStoreProvider().open(
                    StoreUri.parse(uri + "&distlock.poolSize=1&distlock.connectTimeoutMillis=30000"));
            Future<?> holder = holdTheOneConnection(pool, store, giveBack);
            AtomicReference<Thread> thread = new AtomicReference<>();
            CompletableFuture<Throwable> ended = new CompletableFuture<>();
            pool.submit(() -> {
                thread.set(Thread.currentThread());
                try {
                    Grant g = store.acquire("l", Duration.ofSeconds(60), Wait.none());
                    ended.complete(new AssertionError("the single try on a closed store answered " + g));
                } catch (Throwable t) {
                    ended.complete(t);
                }
            });
            awaitWaitingInThePool(thread);
            pool.submit(() -> {
                while (storm.get() && !ended.isDone()) {
                    thread.get().interrupt();
                    LockSupport.parkNanos(200_000);
                }
                return null;
            });
            long start = System.nanoTime();
            store.close();
            Throwable t = ended.get(20, TimeUnit.SECONDS);
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            storm.set(false);
            assertThat(t).as("the single try's end at close").isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed");
            assertThat(tookMs).as("ms from close to the single try's end (connect timeout 30 s)")
                    .isLessThan(15_000);
            giveBack.countDown();
            holder.get(20, TimeUnit.SECONDS);
            Grant free = other.acquire("l", Duration.ofSeconds(5), Wait.none());
            assertThat(free).as("the lock after the closed store's single try").isNotNull();
            other.release(free);
        } finally {
            storm.set(false);
            giveBack.countDown();
            pool.shutdownNow();
        }
    }

    /** Takes {@code store}'s one pooled connection on a thread of {@code pool} until {@code giveBack}. */
    private static Future<?> holdTheOneConnection(ExecutorService pool, JdbcBackend store, CountDownLatch giveBack)
            throws InterruptedException {
        CountDownLatch holding = new CountDownLatch(1);
        Future<?> holder = pool.submit(() -> {
            try {
                return store.withConnection("holding the one connection", c -> {
                    holding.countDown();
                    try {
                        return giveBack.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException("the holder was interrupted", e);
                    }
                });
            } catch (IllegalStateException closedUnderIt) {
                return null; // the store closed while it held the connection
            }
        });
        assertThat(holding.await(10, TimeUnit.SECONDS)).as("the one connection taken").isTrue();
        return holder;
    }

    private static void awaitWaitingInThePool(AtomicReference<Thread> thread) {
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> thread.get() != null
                && Arrays.stream(thread.get().getStackTrace())
                        .anyMatch(e -> e.getClassName().endsWith("ConcurrentBag")));
    }
}
