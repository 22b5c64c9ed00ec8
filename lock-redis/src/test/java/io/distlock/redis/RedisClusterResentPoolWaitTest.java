package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Connection;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.Pool;

/**
 * A waiting acquire on a Cluster whose script ran but whose reply was lost (socket timeout), and whose re-send by
 * Jedis's Cluster client was then interrupted in the pool's wait: Jedis raises the re-send's "Could not get a resource
 * from the pool" (caused by the InterruptedException) and drops the first try's failure, so the error looks like
 * "nothing sent" although the first try ran. The acquire must still hand its owner value to the orphan reaper, or the
 * lock (or permit) stays held by nobody alive to its lease's end (DEFECTS S99). The pool is filled for the re-send by
 * shrinking it by the connection the timed-out try freed: a deterministic stand-in for another thread of the
 * application taking that connection.
 */
class RedisClusterResentPoolWaitTest extends ClusterResendTestBase {

    private static final Duration LEASE = Duration.ofSeconds(60);
    /** Well below the lease: the reaper's take-back, once a connection comes back, takes a round trip or two. */
    private static final Duration TAKEN_BACK_WITHIN = Duration.ofSeconds(20);

    @Test
    void aWaitingLockAcquireWhoseResendIsInterruptedInThePoolWaitLeavesNoOrphan() throws Exception {
        String name = "resent-pool-wait-" + UUID.randomUUID();
        try (Opened opened = Opened.of(proxy.port())) {
            opened.backend.release(opened.backend.acquire("warm-" + name, LEASE, Wait.none())); // loads the script
            Throwable raised = interruptedResend(opened,
                    () -> opened.backend.acquire(name, LEASE, Wait.upTo(Duration.ofSeconds(20))));
            assertThat(raised).as("the waiting acquire, interrupted").isInstanceOf(InterruptedException.class);
            Awaitility.await("the lock the lost try took, taken back by the orphan reaper").atMost(TAKEN_BACK_WITHIN)
                    .until(() -> !probe.raw().exists("distlock:{" + name + "}"));
        }
    }

    @Test
    void aWaitingPermitAcquireWhoseResendIsInterruptedInThePoolWaitLeavesNoOrphan() throws Exception {
        String name = "resent-pool-wait-" + UUID.randomUUID();
        try (Opened opened = Opened.of(proxy.port())) {
            opened.backend.releasePermit(opened.backend.acquirePermit("warm-" + name, 1, LEASE, Wait.none()));
            Throwable raised = interruptedResend(opened,
                    () -> opened.backend.acquirePermit(name, 1, LEASE, Wait.upTo(Duration.ofSeconds(20))));
            assertThat(raised).as("the waiting permit acquire, interrupted").isInstanceOf(InterruptedException.class);
            Awaitility.await("the permit the lost try took, taken back by the orphan reaper").atMost(TAKEN_BACK_WITHIN)
                    .until(() -> opened.backend.heldPermits(name) == 0);
        }
    }

    /** An acquire that may throw anything. */
    @FunctionalInterface
    private interface Call {
        Object run() throws Exception;
    }

    /**
     * Runs {@code call} with the reply to its script swallowed; while it waits for that reply, shrinks the pool by the
     * connection the call holds and interrupts it, so Jedis's re-send waits in the pool and takes the interrupt. Gives
     * the connection back once the call ended; returns what the call raised.
     */
    private Throwable interruptedResend(Opened opened, Call call) throws Exception {
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(opened.backend::isSubscribed);
        int size = opened.pool.getMaxTotal();
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        proxy.dropReplyToNext("EVALSHA");
        Thread acquirer = new Thread(() -> {
            try {
                call.run();
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        }, "resent-acquirer");
        acquirer.start();
        try {
            assertThat(proxy.awaitDropped(5, TimeUnit.SECONDS)).as("the acquire ran on the server").isTrue();
            // the try waits for its reply until the socket timeout (5 s); the connection it frees then goes elsewhere
            opened.pool.setMaxTotal(opened.pool.getNumActive() - 1);
            acquirer.interrupt(); // a socket read ignores it: the re-send's pool wait takes it
            return outcome.get(30, TimeUnit.SECONDS);
        } finally {
            opened.pool.setMaxTotal(size);
            acquirer.interrupt();
        }
    }

    /** A Cluster backend through the proxy, poolSize 2 (one taken by the subscriber), timeout 5 s, and its node's one pool. */
    private record Opened(RedisBackend backend, Pool<Connection> pool) implements AutoCloseable {

        static Opened of(int port) {
            RedisUri parsed = RedisUri.parse(StoreUri.parse("redis-cluster://127.0.0.1:" + port
                    + "?timeout=5s&poolSize=2"));
            UnifiedJedis client = RedisClients.cluster(parsed);
            RedisBackend backend = new RedisBackend(client, parsed.options(), parsed.redacted(), true);
            Map<String, Pool<Connection>> pools = RedisClients.nodePools(client);
            assertThat(pools).as("the one node's pool, at the proxy's port").hasSize(1);
            return new Opened(backend, pools.values().iterator().next());
        }

        @Override
        public void close() {
            backend.close();
        }
    }
}
