package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockException;
import io.distlock.StoreUnavailableException;
import io.distlock.spi.Grant;
import io.distlock.spi.Renewal;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import io.distlock.tck.fixture.StoreServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Connection;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.Pool;

/**
 * Store calls interrupted while they wait for the client's pool to hand them a connection (single Redis, poolSize 1,
 * every connection taken by the test): commons-pool gives up with Jedis's "Could not get a resource from the pool",
 * caused by the InterruptedException, having sent nothing. A waiting acquire ends as an interrupt, never as an outage
 * of a healthy store (DEFECTS S90); the calls the core runs without the caller's flag (a single try, a hand-over, the
 * renewal of extend and releaseAfter) reach the store (S91); and such a retried wait ends even when interrupts keep
 * coming (S92).
 */
class RedisPoolWaitInterruptTest {

    private static final Duration LEASE = Duration.ofSeconds(60);

    @Test
    void aWaitingLockAcquireInterruptedInThePoolWaitRaisesInterruptedException() throws Exception {
        String name = uniqueName();
        interruptedInThePoolWait(b -> () -> b.acquire(name, LEASE, twentySeconds()), (o, after) -> {
            assertThat(o.raised).as("a waiting lock acquire").isInstanceOf(InterruptedException.class);
            assertThat(o.flagAfter).as("the flag after InterruptedException, cleared as by any").isFalse();
            Grant grant = after.acquire(name, LEASE, Wait.none());
            assertThat(grant).as("the lock after the interrupted acquire").isNotNull();
            after.release(grant);
        });
    }

    @Test
    void aWaitingPermitAcquireInterruptedInThePoolWaitRaisesInterruptedException() throws Exception {
        String name = uniqueName();
        interruptedInThePoolWait(b -> () -> b.acquirePermit(name, 1, LEASE, twentySeconds()), (o, after) -> {
            assertThat(o.raised).as("a waiting permit acquire").isInstanceOf(InterruptedException.class);
            assertThat(o.flagAfter).as("the flag after InterruptedException, cleared as by any").isFalse();
            assertThat(after.heldPermits(name)).as("permits held after the interrupted acquire").isZero();
        });
    }

    @Test
    void aPermitCountInterruptedInThePoolWaitFailsAsAnInterrupt() throws Exception {
        String name = uniqueName();
        interruptedInThePoolWait(b -> () -> b.heldPermits(name), (o, after) -> {
            assertThat(o.raised).as("a permit count, which cannot throw InterruptedException")
                    .isInstanceOf(LockException.class).isNotInstanceOf(StoreUnavailableException.class)
                    .hasMessageStartingWith("interrupted while counting the permits of semaphore '" + name + "'")
                    .hasCauseInstanceOf(InterruptedException.class);
            assertThat(o.flagAfter).as("the interrupt flag after the failed count").isTrue();
        });
    }

    /**
     * The admin view's calls (listing, force-release) cannot throw InterruptedException either: one interrupted in the
     * pool's wait fails as an interrupt with the flag set again, never as an outage with the interrupt lost, as the
     * SQL store's do (DEFECTS S100; commons-pool's wait clears the flag).
     */
    @Test
    void anAdminListingInterruptedInThePoolWaitFailsAsAnInterruptAndKeepsTheFlag() throws Exception {
        interruptedInThePoolWait(b -> () -> b.admin().list("", 10), (o, after) -> {
            assertThat(o.flagAfter).as("the interrupt flag after the failed listing").isTrue();
            assertThat(o.raised).as("an admin listing, which cannot throw InterruptedException")
                    .isInstanceOf(LockException.class).isNotInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("interrupted").hasCauseInstanceOf(InterruptedException.class);
        });
    }

    /** As {@link #anAdminListingInterruptedInThePoolWaitFailsAsAnInterruptAndKeepsTheFlag}, for a force-release. */
    @Test
    void anAdminForceReleaseInterruptedInThePoolWaitFailsAsAnInterruptAndKeepsTheFlag() throws Exception {
        String name = uniqueName();
        interruptedInThePoolWait(b -> () -> b.admin().forceRelease(name), (o, after) -> {
            assertThat(o.flagAfter).as("the interrupt flag after the failed force-release").isTrue();
            assertThat(o.raised).as("a force-release, which cannot throw InterruptedException")
                    .isInstanceOf(LockException.class).isNotInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("interrupted").hasCauseInstanceOf(InterruptedException.class);
        });
    }

    /** A single try ignores the interrupt, as {@code Lock.tryLock()} does: it answers, and gives the flag back. */
    @Test
    void aSingleTryInterruptedInThePoolWaitStillAnswers() throws Exception {
        String name = uniqueName();
        interruptedInThePoolWait(b -> () -> b.acquire(name, LEASE, Wait.none()), (o, after) -> {
            assertThat(o.raised).as("the single try's failure").isNull();
            assertThat(o.result).as("the single try's grant of a free lock").isInstanceOf(Grant.class);
            assertThat(o.flagAfter).as("the interrupt flag after the single try").isTrue();
            assertThat(after.release((Grant) o.result)).as("the granted lock is held in the store").isTrue();
        });
    }

    /** As {@link #aSingleTryInterruptedInThePoolWaitStillAnswers}, for a permit. */
    @Test
    void aSinglePermitTryInterruptedInThePoolWaitStillAnswers() throws Exception {
        String name = uniqueName();
        interruptedInThePoolWait(b -> () -> b.acquirePermit(name, 1, LEASE, Wait.none()), (o, after) -> {
            assertThat(o.raised).as("the single try's failure").isNull();
            assertThat(o.result).as("the single try's grant of a free permit").isInstanceOf(Grant.class);
            assertThat(o.flagAfter).as("the interrupt flag after the single try").isTrue();
            assertThat(after.releasePermit((Grant) o.result)).as("the granted permit is held in the store").isTrue();
        });
    }

    /** A hand-over is a release: interrupted in the pool wait, it still passes the lock on. */
    @Test
    void aHandOverInterruptedInThePoolWaitStillPassesTheLockOn() throws Exception {
        String name = uniqueName();
        interruptedInThePoolWait(b -> {
            Grant held = b.acquire(name, LEASE, Wait.none());
            return () -> b.handOver(held, LEASE, Thread.currentThread());
        }, (o, after) -> {
            assertThat(o.raised).as("the interrupted hand-over's failure").isNull();
            assertThat(o.flagAfter).as("the interrupt flag after the hand-over").isTrue();
            assertThat(o.result).as("the handed-over grant").isInstanceOf(Grant.class);
            assertThat(after.release((Grant) o.result)).as("the lock is held for the new grant").isTrue();
        });
    }

    /** The renewal of extend and releaseAfter (run without the caller's flag) reaches the store. */
    @Test
    void aRenewalInterruptedInThePoolWaitStillRenews() throws Exception {
        String name = uniqueName();
        Grant[] held = new Grant[1];
        interruptedInThePoolWait(b -> {
            held[0] = b.acquire(name, Duration.ofSeconds(5), Wait.none());
            return () -> b.renew(List.of(new Renewal(held[0], LEASE)));
        }, (o, after) -> {
            assertThat(o.raised).as("the interrupted renewal's failure").isNull();
            assertThat(o.result).as("the leases the store no longer had").isEqualTo(Set.of());
            assertThat(o.flagAfter).as("the interrupt flag after the renewal").isTrue();
            after.release(held[0]);
        });
    }

    /** As {@link #aRenewalInterruptedInThePoolWaitStillRenews}, for a permit. */
    @Test
    void aPermitRenewalInterruptedInThePoolWaitStillRenews() throws Exception {
        String name = uniqueName();
        Grant[] held = new Grant[1];
        interruptedInThePoolWait(b -> {
            held[0] = b.acquirePermit(name, 1, Duration.ofSeconds(5), Wait.none());
            return () -> b.renewPermits(List.of(new Renewal(held[0], LEASE)));
        }, (o, after) -> {
            assertThat(o.raised).as("the interrupted renewal's failure").isNull();
            assertThat(o.result).as("the permits the store no longer had").isEqualTo(Set.of());
            assertThat(o.flagAfter).as("the interrupt flag after the renewal").isTrue();
            after.releasePermit(held[0]);
        });
    }

    /**
     * A release whose pool waits are interrupted again and again while no connection comes back gives up after the
     * pool's wait, reporting what it is (no connection within the wait), instead of waiting forever.
     */
    @Test
    void aReleaseInterruptedWithoutPauseEndsWithinItsBound() throws Exception {
        String uri = StoreServers.redis() + "?poolSize=1&timeout=2s";
        String name = uniqueName();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        AtomicBoolean storm = new AtomicBoolean(true);
        List<Connection> taken = new ArrayList<>();
        try (Opened opened = Opened.of(uri)) {
            Grant held = opened.backend.acquire(name, LEASE, Wait.none());
            taken.addAll(exhaust(opened.pool, opened.backend));
            AtomicReference<Thread> thread = new AtomicReference<>();
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            CountDownLatch started = new CountDownLatch(1);
            long start = System.nanoTime();
            threads.submit(() -> {
                thread.set(Thread.currentThread());
                started.countDown();
                try {
                    opened.backend.release(held);
                    outcome.complete(null);
                } catch (Throwable t) {
                    outcome.complete(t);
                }
            });
            threads.submit(() -> {
                started.await();
                while (storm.get() && !outcome.isDone()) { // from before the release's first wait to its end
                    thread.get().interrupt();
                    Thread.onSpinWait();
                }
                return null;
            });
            Throwable raised = outcome.get(20, TimeUnit.SECONDS);
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(raised).as("the release whose every pool wait was interrupted")
                    .isInstanceOf(StoreUnavailableException.class)
                    // "no connection of its pool came within its wait", or the pool's own timeout should the spinning
                    // interrupter be descheduled for a whole wait: both say no connection came
                    .hasMessageContaining("Could not get a resource from the pool");
            assertThat(tookMs).as("ms the release kept retrying under interrupts (pool wait 2 s)")
                    .isLessThan(10_000);
            storm.set(false);
            taken.forEach(Connection::close);
            taken.clear();
            assertThat(opened.backend.release(held)).as("the lock, released once connections came back").isTrue();
        } finally {
            storm.set(false);
            taken.forEach(Connection::close);
            threads.shutdownNow();
        }
    }

    private static String uniqueName() {
        return "pool-wait-interrupt-" + UUID.randomUUID();
    }

    private static Wait twentySeconds() {
        return Wait.upTo(Duration.ofSeconds(20));
    }

    /** Readies the backend (a grant to hand over, say) and returns the call to interrupt. */
    @FunctionalInterface
    private interface Prepare {
        Call on(RedisBackend backend) throws Exception;
    }

    /** A call on the backend that may throw anything. */
    @FunctionalInterface
    private interface Call {
        Object run() throws Exception;
    }

    /**
     * What the interrupted call returned or raised, and whether its thread's flag was set afterwards.
     */
    private record Outcome(Object result, Throwable raised, boolean flagAfter) {
    }

    /** Checks the outcome, and the store through the backend whose connections came back. */
    @FunctionalInterface
    private interface Check {
        void check(Outcome outcome, RedisBackend after) throws Exception;
    }

    /** A backend with its own client, whose pool the test drains. */
    private record Opened(RedisBackend backend, Pool<Connection> pool) implements AutoCloseable {

        static Opened of(String uri) {
            RedisUri parsed = RedisUri.parse(StoreUri.parse(uri));
            UnifiedJedis client = RedisClients.single(parsed, parsed.singleHost(), parsed.options().timeout());
            RedisBackend backend = new RedisBackend(client, parsed.options(), parsed.redacted(), false);
            return new Opened(backend, ((RedisClient) client).getPool());
        }

        @Override
        public void close() {
            backend.close();
        }
    }

    /** Takes every connection of {@code pool} the subscriber left (once it holds its own). */
    private static List<Connection> exhaust(Pool<Connection> pool, RedisBackend backend) {
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(backend::isSubscribed);
        List<Connection> taken = new ArrayList<>();
        while (pool.getNumActive() < pool.getMaxTotal()) {
            taken.add(pool.getResource());
        }
        return taken;
    }

    /** Waits until {@code thread} is set and waits in commons-pool for a connection. */
    private static void awaitInThePoolWait(AtomicReference<Thread> thread) {
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> thread.get() != null
                && Arrays.stream(thread.get().getStackTrace())
                        .anyMatch(e -> e.getClassName().endsWith("LinkedBlockingDeque")));
    }

    /**
     * Runs the call {@code prepare} returns while every pooled connection is taken, interrupts it once it waits in
     * the pool, then gives the connections back.
     */
    private static void interruptedInThePoolWait(Prepare prepare, Check check) throws Exception {
        String uri = StoreServers.redis() + "?poolSize=1&timeout=30s";
        ExecutorService threads = Executors.newSingleThreadExecutor();
        List<Connection> taken = new ArrayList<>();
        try (Opened opened = Opened.of(uri)) {
            Call call = prepare.on(opened.backend);
            taken.addAll(exhaust(opened.pool, opened.backend));
            AtomicReference<Thread> thread = new AtomicReference<>();
            CompletableFuture<Outcome> outcome = new CompletableFuture<>();
            threads.submit(() -> {
                thread.set(Thread.currentThread());
                try {
                    Object result = call.run();
                    outcome.complete(new Outcome(result, null, Thread.interrupted()));
                } catch (Throwable t) {
                    outcome.complete(new Outcome(null, t, Thread.interrupted()));
                }
            });
            awaitInThePoolWait(thread);
            thread.get().interrupt();
            // the call ended, or its wait took the interrupt (the flag cleared) and it waits on: either way the
            // connections may come back now without racing the interrupt
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> outcome.isDone() || !thread.get().isInterrupted());
            taken.forEach(Connection::close);
            taken.clear();
            check.check(outcome.get(20, TimeUnit.SECONDS), opened.backend);
        } finally {
            taken.forEach(Connection::close);
            threads.shutdownNow();
        }
    }
}
