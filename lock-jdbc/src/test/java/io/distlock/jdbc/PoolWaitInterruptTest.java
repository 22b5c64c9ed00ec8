package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockException;
import io.distlock.StoreUnavailableException;
import io.distlock.spi.Grant;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Calls interrupted while they wait for the store's pool to hand them a connection (PostgreSQL, poolSize 1, the one
 * connection busy): HikariCP gives up with a plain {@code SQLException} caused by the InterruptedException and sets
 * the flag again. Each must end as an interrupt, as in any other wait of it, never as an SQL error of the database
 * (DEFECTS S86).
 */
@ExtendWith(Databases.class)
class PoolWaitInterruptTest {


    @Test
    void aFirstSemaphoreAcquireInterruptedWhileWaitingForAPooledConnectionRaisesInterruptedException()
            throws Exception {
        Outcome o = interruptedInThePoolWait(
                s -> t -> t.acquirePermit("s", 1, Duration.ofSeconds(30), twentySeconds()));
        assertThat(o.raised).as("the first acquire (the permit table's probe waits)")
                .isInstanceOf(InterruptedException.class);
        assertThat(o.flagAfter).as("the flag after InterruptedException, cleared as by any").isFalse();
    }

    @Test
    void aSemaphoreAcquireInterruptedWhileWaitingForAPooledConnectionRaisesInterruptedException() throws Exception {
        Outcome o = interruptedInThePoolWait(
                ready(t -> t.acquirePermit("s", 1, Duration.ofSeconds(30), twentySeconds())));
        assertThat(o.raised).as("an acquire on a ready permit table (its attempt waits)")
                .isInstanceOf(InterruptedException.class);
        assertThat(o.flagAfter).as("the flag after InterruptedException, cleared as by any").isFalse();
    }

    @Test
    void aLockAcquireInterruptedWhileWaitingForAPooledConnectionRaisesInterruptedException() throws Exception {
        Outcome o = interruptedInThePoolWait(ready(t -> t.acquire("l", Duration.ofSeconds(30), twentySeconds())));
        assertThat(o.raised).as("a lock acquire").isInstanceOf(InterruptedException.class);
        assertThat(o.flagAfter).as("the flag after InterruptedException, cleared as by any").isFalse();
    }

    @Test
    void aPermitCountInterruptedWhileWaitingForAPooledConnectionFailsAsAnInterrupt() throws Exception {
        Outcome o = interruptedInThePoolWait(ready(t -> t.heldPermits("s")));
        assertThat(o.raised).as("a permit count, which cannot throw InterruptedException")
                .isInstanceOf(LockException.class).isNotInstanceOf(StoreUnavailableException.class)
                .hasMessageStartingWith("interrupted while counting the permits of 's'")
                .hasCauseInstanceOf(InterruptedException.class);
        assertThat(o.flagAfter).as("the interrupt flag after the failed count").isTrue();
    }

    /**
     * A lock's release interrupted while it waits for a pooled connection still frees the lock once the connection
     * comes (the flag set again afterwards): a release must not fail because its thread was interrupted, or the lock
     * stays held by nobody alive until its lease's end (DEFECTS S87).
     */
    @Test
    void aLockReleaseInterruptedWhileWaitingForAPooledConnectionStillFreesTheLock() throws Exception {
        Outcome o = interruptedInThePoolWait(s -> {
            Grant grant = s.acquire("l", Duration.ofSeconds(60), Wait.none());
            return t -> t.release(grant);
        });
        assertThat(o.raised).as("the interrupted release's failure").isNull();
        assertThat(o.flagAfter).as("the interrupt flag after the release").isTrue();
    }

    /** As {@link #aLockReleaseInterruptedWhileWaitingForAPooledConnectionStillFreesTheLock}, for a permit. */
    @Test
    void aPermitReleaseInterruptedWhileWaitingForAPooledConnectionStillFreesThePermit() throws Exception {
        Outcome o = interruptedInThePoolWait(s -> {
            Grant grant = s.acquirePermit("s", 1, Duration.ofSeconds(60), Wait.none());
            return t -> t.releasePermit(grant);
        });
        assertThat(o.raised).as("the interrupted release's failure").isNull();
        assertThat(o.flagAfter).as("the interrupt flag after the release").isTrue();
    }

    /** A wait of 20 seconds from now. */
    private static Wait twentySeconds() {
        return Wait.upTo(Duration.ofSeconds(20));
    }

    /** {@code call}, once the permit table was made. */
    private static Prepare ready(Call call) {
        return s -> {
            s.heldPermits("s");
            return call;
        };
    }

    /** Readies the store and returns the call to interrupt. */
    @FunctionalInterface
    private interface Prepare {
        Call on(JdbcBackend store) throws Exception;
    }

    /** A call on the store that may throw anything. */
    @FunctionalInterface
    private interface Call {
        Object on(JdbcBackend store) throws Exception;
    }

    /** What the interrupted call raised, and whether its thread's flag was set afterwards. */
    private record Outcome(Throwable raised, boolean flagAfter) {
    }

    /**
     * Runs {@code call} while the one pooled connection is busy, interrupts it once it waits in the pool, and checks
     * that no permit nor the lock is left held and that the store works afterwards.
     */
    private static Outcome interruptedInThePoolWait(Prepare prepare) throws Exception {
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + Databases.uniqueTable("pwi")
                + "&distlock.poolSize=1&distlock.connectTimeoutMillis=30000");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch release = new CountDownLatch(1);
        try (JdbcBackend store = (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri))) {
            Call call = prepare.on(store);
            CountDownLatch holding = new CountDownLatch(1);
            Future<?> holder = pool.submit(() -> store.withConnection("holding the one connection", c -> {
                holding.countDown();
                try {
                    return release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException("the holder was interrupted", e);
                }
            }));
            assertThat(holding.await(10, TimeUnit.SECONDS)).as("the one connection taken").isTrue();

            AtomicReference<Thread> thread = new AtomicReference<>();
            CompletableFuture<Outcome> outcome = new CompletableFuture<>();
            pool.submit(() -> {
                thread.set(Thread.currentThread());
                try {
                    Object result = call.on(store);
                    outcome.complete(new Outcome(null, Thread.interrupted()));
                    return result;
                } catch (Throwable t) {
                    outcome.complete(new Outcome(t, Thread.interrupted()));
                    return null;
                }
            });
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> thread.get() != null
                    && Arrays.stream(thread.get().getStackTrace())
                            .anyMatch(e -> e.getClassName().endsWith("ConcurrentBag")));
            thread.get().interrupt();
            // the call ended, or its wait took the interrupt (the flag cleared) and it waits on: either way, the
            // connection may come back now without racing the interrupt
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> outcome.isDone() || !thread.get().isInterrupted());
            release.countDown();
            Outcome o = outcome.get(10, TimeUnit.SECONDS);
            holder.get(10, TimeUnit.SECONDS);
            assertThat(store.heldPermits("s")).as("permits held after the interrupted call").isZero();
            assertThat(store.acquire("l", Duration.ofSeconds(30), Wait.none()))
                    .as("the lock after the interrupted call").isNotNull();
            return o;
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }
}
