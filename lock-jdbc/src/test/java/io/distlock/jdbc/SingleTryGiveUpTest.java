package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.StoreUnavailableException;
import io.distlock.spi.Grant;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
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
        assertThat(o.raised).as("the single try of a free lock that got no connection (it answered %s)", o.result)
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("no connection of its pool came within its wait of 2000 ms");
        assertThat(o.flagAfter).as("the interrupt flag after the single try").isTrue();
    }

    @Test
    void aPermitSingleTryThatGaveUpWaitingReportsTheOutage() throws Exception {
        Outcome o = underInterruptStorm(s -> s.acquirePermit("s", 1, Duration.ofSeconds(60), Wait.none()));
        assertThat(o.raised).as("the single try of a free permit that got no connection (it answered %s)", o.result)
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("no connection of its pool came within its wait of 2000 ms");
        assertThat(o.flagAfter).as("the interrupt flag after the single try").isTrue();
    }

    /**
     * Runs {@code call} on a store whose one connection is busy, interrupting its thread without pause until it
     * ends; then checks that the store works and that nothing was left held.
     */
    private static Outcome underInterruptStorm(Call call) throws Exception {
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + Databases.uniqueTable("stg")
                + "&distlock.poolSize=1&distlock.connectTimeoutMillis=2000");
        ExecutorService pool = Executors.newFixedThreadPool(3);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean storm = new AtomicBoolean(true);
        try (JdbcBackend store = (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri))) {
            store.heldPermits("s"); // the permit table made, so the call waits in the pool only
            CountDownLatch holding = new CountDownLatch(1);
            Future<?> holder = pool.submit(() -> store.withConnection("holding the one connection", c -> {
                holding.countDown();
                try {
                    return release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException("the holder was interrupted", e);
                }
            }));
            assertThat(holding.await(10, TimeUnit.SECONDS)).as("the one connection taken").isTrue();
            AtomicReference<Thread> thread = new AtomicReference<>();
            CompletableFuture<Outcome> outcome = new CompletableFuture<>();
            CountDownLatch started = new CountDownLatch(1);
            pool.submit(() -> {
                thread.set(Thread.currentThread());
                started.countDown();
                try {
                    Object result = call.on(store);
                    outcome.complete(new Outcome(result, null, Thread.interrupted()));
                } catch (Throwable t) {
                    outcome.complete(new Outcome(null, t, Thread.interrupted()));
                }
            });
            pool.submit(() -> {
                started.await();
                while (storm.get() && !outcome.isDone()) {
                    thread.get().interrupt();
                    LockSupport.parkNanos(50_000); // paced, so the call's thread gets the cores in between
                }
                return null;
            });
            Outcome o = outcome.get(20, TimeUnit.SECONDS);
            storm.set(false);
            release.countDown();
            holder.get(10, TimeUnit.SECONDS);
            if (o.result instanceof Grant granted) {
                store.release(granted);
            }
            assertThat(store.heldPermits("s")).as("permits held after the single try").isZero();
            Grant after = store.acquire("l", Duration.ofSeconds(30), Wait.none());
            assertThat(after).as("the lock after the single try").isNotNull();
            store.release(after);
            return o;
        } finally {
            storm.set(false);
            release.countDown();
            pool.shutdownNow();
        }
    }

    /** A call on the store that may throw anything. */
    @FunctionalInterface
    private interface Call {
        Object on(JdbcBackend store) throws Exception;
    }

    /** What the call returned or raised, and whether its thread's flag was set afterwards. */
    private record Outcome(Object result, Throwable raised, boolean flagAfter) {
    }
}
