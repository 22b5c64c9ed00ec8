package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockException;
import io.distlock.StoreUnavailableException;
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

    private static final Wait TWENTY_SECONDS = Wait.upTo(Duration.ofSeconds(20));

    @Test
    void aFirstSemaphoreAcquireInterruptedWhileWaitingForAPooledConnectionRaisesInterruptedException()
            throws Exception {
        Outcome o = interruptedInThePoolWait(false,
                s -> s.acquirePermit("s", 1, Duration.ofSeconds(30), TWENTY_SECONDS));
        assertThat(o.raised).as("the first acquire (the permit table's probe waits)")
                .isInstanceOf(InterruptedException.class);
        assertThat(o.flagAfter).as("the flag after InterruptedException, cleared as by any").isFalse();
    }

    @Test
    void aSemaphoreAcquireInterruptedWhileWaitingForAPooledConnectionRaisesInterruptedException() throws Exception {
        Outcome o = interruptedInThePoolWait(true,
                s -> s.acquirePermit("s", 1, Duration.ofSeconds(30), TWENTY_SECONDS));
        assertThat(o.raised).as("an acquire on a ready permit table (its attempt waits)")
                .isInstanceOf(InterruptedException.class);
        assertThat(o.flagAfter).as("the flag after InterruptedException, cleared as by any").isFalse();
    }

    @Test
    void aLockAcquireInterruptedWhileWaitingForAPooledConnectionRaisesInterruptedException() throws Exception {
        Outcome o = interruptedInThePoolWait(true, s -> s.acquire("l", Duration.ofSeconds(30), TWENTY_SECONDS));
        assertThat(o.raised).as("a lock acquire").isInstanceOf(InterruptedException.class);
        assertThat(o.flagAfter).as("the flag after InterruptedException, cleared as by any").isFalse();
    }

    @Test
    void aPermitCountInterruptedWhileWaitingForAPooledConnectionFailsAsAnInterrupt() throws Exception {
        Outcome o = interruptedInThePoolWait(true, s -> s.heldPermits("s"));
        assertThat(o.raised).as("a permit count, which cannot throw InterruptedException")
                .isInstanceOf(LockException.class).isNotInstanceOf(StoreUnavailableException.class)
                .hasMessageStartingWith("interrupted while counting the permits of 's'")
                .hasCauseInstanceOf(InterruptedException.class);
        assertThat(o.flagAfter).as("the interrupt flag after the failed count").isTrue();
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
     * that it held nothing and that the store works afterwards; {@code ready}: the permit table was made before.
     */
    private static Outcome interruptedInThePoolWait(boolean ready, Call call) throws Exception {
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + Databases.uniqueTable("pwi")
                + "&distlock.poolSize=1&distlock.connectTimeoutMillis=30000");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch release = new CountDownLatch(1);
        try (JdbcBackend store = (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri))) {
            if (ready) {
                store.heldPermits("s");
            }
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
            Outcome o = outcome.get(10, TimeUnit.SECONDS);
            release.countDown();
            holder.get(10, TimeUnit.SECONDS);
            assertThat(store.heldPermits("s")).as("permits held after the interrupted call").isZero();
            assertThat(store.acquire("l", Duration.ofSeconds(30), Wait.none())).as("the lock after the interrupted call")
                    .isNotNull();
            return o;
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }
}
