package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;

/**
 * A release wakes one waiting client, not all of them (issue #33's thundering herd): a refused waiter queues its
 * client in the name's waiter queue, and a release publishes on the wake channel of the queue's head alone, which
 * only that client subscribes to. A woken client that is gone costs the others at most their bounded re-check; one
 * that is there but does not wait passes the wake-up on.
 */
class RedisWakeOneTest {

    private static final LockOptions LEASE_30S = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(30));
    private static final RedisKeys KEYS = new RedisKeys("distlock:");

    @RegisterExtension
    static final OwnRedisServer server = new OwnRedisServer();

    @Test
    void eachReleaseReachesOneWaitingClient() throws Exception {
        int waiters = 5;
        List<LockStore> stores = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(waiters);
        try (RedisProbe probe = new RedisProbe(server.port()); Capture capture = new Capture(server.port())) {
            for (int i = 0; i <= waiters; i++) {
                stores.add(BackendStores.open(server.uri("timeout=2s")));
            }
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> stores.stream().allMatch(s -> RedisProbe.backendOf(s).isSubscribed()));
            Lease held = stores.get(0).lock("herd", LEASE_30S).tryAcquire().orElseThrow();
            List<Future<Long>> turns = new ArrayList<>();
            for (int i = 1; i <= waiters; i++) {
                LockStore store = stores.get(i);
                turns.add(pool.submit(() -> {
                    Lease lease = store.lock("herd", LEASE_30S).tryAcquire(Duration.ofSeconds(20))
                            .orElseThrow(() -> new AssertionError("no turn within 20 s"));
                    long token = lease.fencingToken();
                    lease.release();
                    return token;
                }));
            }
            // a waiter registers in its client after its first attempt was refused, which queued it
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> stores.subList(1, stores.size()).stream()
                    .allMatch(s -> RedisProbe.backendOf(s).signals().hasWaiters("herd")));
            long publishesBefore = probe.calls("publish");
            held.release();
            for (Future<Long> turn : turns) {
                assertThat(turn.get(30, TimeUnit.SECONDS)).isGreaterThan(held.fencingToken());
            }
            long publishes = probe.calls("publish") - publishesBefore;
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> capture.messages.size() >= publishes);

            assertThat(publishes).as("PUBLISH calls for %d hand-offs", waiters).isBetween(1L, (long) waiters);
            assertThat(capture.messages).as("(channel, message) of every release message").allSatisfy(m -> {
                assertThat(m.getKey()).startsWith("distlock:wake:");
                assertThat(m.getValue()).isEqualTo("herd");
                assertThat(((List<?>) probe.raw().sendCommand(Protocol.Command.PUBSUB, "NUMSUB", m.getKey())).get(1))
                        .as("subscribers of %s", m.getKey()).isEqualTo(1L);
            });
            assertThat(probe.raw().exists(KEYS.waiting("herd"))).as("waiter queue after the last turn").isFalse();
        } finally {
            pool.shutdownNow();
            stores.forEach(LockStore::close);
        }
    }

    @Test
    void aWokenClientThatIsGoneCostsTheOthersOneRecheck() throws Exception {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore holderStore = BackendStores.open(server.uri("timeout=2s"));
                LockStore waiterStore = BackendStores.open(server.uri("timeout=2s"))) {
            RedisBackend waiterBackend = RedisProbe.backendOf(waiterStore);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(waiterBackend::isSubscribed);
            Lease held = holderStore.lock("ghost", LEASE_30S).tryAcquire().orElseThrow();
            CompletableFuture<Lease> waiter = CompletableFuture.supplyAsync(() -> {
                try {
                    return waiterStore.lock("ghost", LEASE_30S).tryAcquire(Duration.ofSeconds(20)).orElseThrow();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> probe.raw().zcard(KEYS.waiting("ghost")) == 1);
            // a client that queued and died: first in line, expiring long before the real waiter's place
            long now = probe.serverClockMicros() / 1000;
            probe.raw().zadd(KEYS.waiting("ghost"), now + 20_000, "gone-client");

            long releasedAt = System.nanoTime();
            held.release();
            Lease next = waiter.get(30, TimeUnit.SECONDS);
            assertThat(Duration.ofNanos(System.nanoTime() - releasedAt))
                    .as("release to grant when the woken client is gone (re-check 1 s, jittered up to half more)")
                    .isLessThan(Duration.ofSeconds(3));
            assertThat(probe.raw().zscore(KEYS.waiting("ghost"), "gone-client")).as("the gone client's place")
                    .isNull();
            next.release();
        }
    }

    /**
     * A waiter refused in a long queue re-checks on its own that many times less often ({@link QueueCrowd}), so a
     * wake-up lost there (here: woken clients that are gone) costs it at most the longest spread re-check, and a
     * thread of the same store that waits in a short queue keeps the re-check of a waiter alone.
     */
    @Test
    void aWakeUpLostInALongQueueCostsAtMostTheSpreadRecheckAndOnlyThere() throws Exception {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore holderStore = BackendStores.open(server.uri("timeout=2s"));
                LockStore waiterStore = BackendStores.open(server.uri("timeout=2s"))) {
            RedisBackend waiterBackend = RedisProbe.backendOf(waiterStore);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(waiterBackend::isSubscribed);
            Lease crowdedHeld = holderStore.lock("crowded", LEASE_30S).tryAcquire().orElseThrow();
            Lease aloneHeld = holderStore.lock("alone", LEASE_30S).tryAcquire().orElseThrow();
            long now = probe.serverClockMicros() / 1000;
            for (int i = 0; i < 40; i++) { // clients that queued and died, first in line
                probe.raw().zadd(KEYS.waiting("crowded"), now + 20_000, "gone-client-" + i);
            }
            probe.raw().zadd(KEYS.waiting("alone"), now + 20_000, "gone-client");
            CompletableFuture<Lease> crowded = waitFor(waiterStore, "crowded");
            CompletableFuture<Lease> alone = waitFor(waiterStore, "alone");
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> Stream.of("crowded", "alone")
                    .allMatch(name -> probe.raw().zscore(KEYS.waiting(name), waiterBackend.waiterId()) != null));

            long releasedAt = System.nanoTime();
            crowdedHeld.release();
            aloneHeld.release();
            alone.get(30, TimeUnit.SECONDS).release();
            Duration aloneTook = Duration.ofNanos(System.nanoTime() - releasedAt);
            crowded.get(30, TimeUnit.SECONDS).release();
            Duration crowdedTook = Duration.ofNanos(System.nanoTime() - releasedAt);
            System.out.println("RedisWakeOneTest: release to grant after a lost wake-up " + aloneTook
                    + " with 2 queued, " + crowdedTook + " with 41 queued");
            assertThat(aloneTook).as("release to grant when the woken client is gone, 2 clients queued (re-check"
                    + " 1 s, jittered up to half more)").isLessThan(Duration.ofSeconds(3));
            assertThat(crowdedTook).as("release to grant when the woken client is gone, 41 clients queued (re-check"
                    + " at most %d s, jittered up to half more)", QueueCrowd.MAX_SPREAD)
                    .isLessThan(RedisBackend.RECHECK.multipliedBy(QueueCrowd.MAX_SPREAD * 3 / 2)
                            .plusSeconds(3));
        }
    }

    /**
     * Places that have expired (clients that queued and left, or died, long ago) are no longer in the queue by its
     * own rule (a release drops them before it wakes anyone), so they do not spread a waiter's re-check: a waiter
     * in a queue of 40 expired places and 2 live ones, whose wake-up is lost to a gone client first in line, gets the
     * lock within the re-check of a short queue, not the 8-12 s of a long one.
     */
    @Test
    void placesThatHaveExpiredDoNotSpreadAWaitersRecheck() throws Exception {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore holderStore = BackendStores.open(server.uri("timeout=2s"));
                LockStore waiterStore = BackendStores.open(server.uri("timeout=2s"))) {
            RedisBackend waiterBackend = RedisProbe.backendOf(waiterStore);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(waiterBackend::isSubscribed);
            Lease held = holderStore.lock("stale", LEASE_30S).tryAcquire().orElseThrow();
            long now = probe.serverClockMicros() / 1000;
            for (int i = 0; i < 40; i++) { // clients that queued a minute ago and left: their places expired since
                probe.raw().zadd(KEYS.waiting("stale"), now - 60_000, "left-client-" + i);
            }
            probe.raw().zadd(KEYS.waiting("stale"), now + 20_000, "gone-client"); // queued and died: first in line
            CompletableFuture<Lease> waiter = waitFor(waiterStore, "stale");
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> probe.raw().zscore(KEYS.waiting("stale"), waiterBackend.waiterId()) != null);

            long releasedAt = System.nanoTime();
            held.release();
            Lease next = waiter.get(30, TimeUnit.SECONDS);
            Duration took = Duration.ofNanos(System.nanoTime() - releasedAt);
            System.out.println("RedisWakeOneTest: release to grant after a lost wake-up " + took
                    + " with 2 queued and 40 expired places");
            assertThat(took).as("release to grant when the woken client is gone, 2 clients queued and 40 expired"
                    + " places (re-check 1 s, jittered up to half more)").isLessThan(Duration.ofSeconds(3));
            next.release();
        }
    }

    /** A waiter of {@code name} in {@code store}, waiting up to 30 s, on a thread of its own. */
    private static CompletableFuture<Lease> waitFor(LockStore store, String name) {
        CompletableFuture<Lease> lease = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                lease.complete(store.lock(name, LEASE_30S).tryAcquire(Duration.ofSeconds(30))
                        .orElseThrow(() -> new AssertionError("no turn at " + name + " within 30 s")));
            } catch (Throwable e) {
                lease.completeExceptionally(e);
            }
        }, "waiter-" + name);
        thread.start();
        return lease;
    }

    /**
     * A refused {@code tryAcquire()} that did not wait queues its client too; when a release wakes that client, it
     * passes the wake-up on to the next queued client instead of leaving it to its re-check: the capture sees the
     * release's message to the client that does not wait, then one to the waiting client.
     */
    @Test
    void aWokenClientThatDoesNotWaitPassesTheWakeUpOn() throws Exception {
        try (RedisProbe probe = new RedisProbe(server.port()); Capture capture = new Capture(server.port());
                LockStore holderStore = BackendStores.open(server.uri("timeout=2s"));
                LockStore idleStore = BackendStores.open(server.uri("timeout=2s"));
                LockStore waiterStore = BackendStores.open(server.uri("timeout=2s"))) {
            RedisBackend idle = RedisProbe.backendOf(idleStore);
            RedisBackend waiting = RedisProbe.backendOf(waiterStore);
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> idle.isSubscribed() && waiting.isSubscribed());
            Lease held = holderStore.lock("pass", LEASE_30S).tryAcquire().orElseThrow();
            assertThat(idleStore.lock("pass", LEASE_30S).tryAcquire()).isEmpty();
            CompletableFuture<Lease> waiter = CompletableFuture.supplyAsync(() -> {
                try {
                    return waiterStore.lock("pass", LEASE_30S).tryAcquire(Duration.ofSeconds(20)).orElseThrow();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> waiting.signals().hasWaiters("pass"));
            // right after one of the waiter's re-checks (at least 1 s to the next one, which would find the lock free
            // on its own), the client that does not wait is put first in line
            long scripts = probe.calls("evalsha");
            Awaitility.await().pollInterval(Duration.ofMillis(2)).atMost(Duration.ofSeconds(5))
                    .until(() -> probe.calls("evalsha") > scripts);
            probe.raw().zadd(KEYS.waiting("pass"), probe.serverClockMicros() / 1000 + 20_000, idle.waiterId());

            held.release();
            Lease next = waiter.get(30, TimeUnit.SECONDS);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> capture.messages.size() >= 2);
            assertThat(capture.messages).extracting(Map.Entry::getKey).as("channels of the release messages")
                    .containsExactly(KEYS.wakeChannel(idle.waiterId()), KEYS.wakeChannel(waiting.waiterId()));
            next.release();
        }
    }

    /**
     * A store that closes takes its places out of the waiter queues it stood in (a waiter that close() ended, and a
     * refused attempt that did not wait), so the next release wakes a client that is still there instead of the
     * closed one, whose place would otherwise stay first in line until it expires.
     */
    @Test
    void aClosedStoreLeavesNoPlaceInAnyWaiterQueue() throws Exception {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore holderStore = BackendStores.open(server.uri("timeout=2s"))) {
            LockStore closing = BackendStores.open(server.uri("timeout=2s"));
            RedisBackend backend = RedisProbe.backendOf(closing);
            String id = backend.waiterId();
            Lease waitedFor = holderStore.lock("closing-waits", LEASE_30S).tryAcquire().orElseThrow();
            Lease triedOnce = holderStore.lock("closing-tried", LEASE_30S).tryAcquire().orElseThrow();
            CompletableFuture<Object> waiter = CompletableFuture.supplyAsync(() -> {
                try {
                    return closing.lock("closing-waits", LEASE_30S).tryAcquire(Duration.ofSeconds(20));
                } catch (InterruptedException | RuntimeException e) {
                    return e; // close() ends the wait; how is not this test's business
                }
            });
            assertThat(closing.lock("closing-tried", LEASE_30S).tryAcquire()).isEmpty();
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> probe.raw().zscore(KEYS.waiting("closing-waits"), id) != null);
            assertThat(probe.raw().zscore(KEYS.waiting("closing-tried"), id)).as("place of the refused attempt")
                    .isNotNull();

            closing.close();

            assertThat(probe.raw().zscore(KEYS.waiting("closing-waits"), id))
                    .as("the closed store's place in the queue of the name it waited for").isNull();
            assertThat(probe.raw().zscore(KEYS.waiting("closing-tried"), id))
                    .as("the closed store's place in the queue of the name it tried once").isNull();
            waiter.get(30, TimeUnit.SECONDS);
            waitedFor.release();
            triedOnce.release();
        }
    }

    /** Every message published on the server's {@code distlock:*} channels, as (channel, message). */
    private static final class Capture extends JedisPubSub implements AutoCloseable {
        final ConcurrentLinkedQueue<Map.Entry<String, String>> messages = new ConcurrentLinkedQueue<>();
        private final CountDownLatch subscribed = new CountDownLatch(1);
        private final RedisClient client;
        private final Thread thread;

        Capture(int port) throws InterruptedException {
            client = RedisClient.create("127.0.0.1", port);
            thread = new Thread(() -> client.psubscribe(this, "distlock:*"), "wake-one-capture");
            thread.start();
            assertThat(subscribed.await(10, TimeUnit.SECONDS)).as("capture subscribed").isTrue();
        }

        @Override
        public void onPSubscribe(String pattern, int subscribedChannels) {
            subscribed.countDown();
        }

        @Override
        public void onPMessage(String pattern, String channel, String message) {
            messages.add(Map.entry(channel, message));
        }

        @Override
        public void close() throws InterruptedException {
            punsubscribe();
            thread.join(5000);
            client.close();
        }
    }
}
