package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.spi.Grant;
import io.distlock.spi.OthersWaiting;
import io.distlock.spi.Wait;
import io.distlock.tck.check.HandOverHolder;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The hand-over script on a real server of its own (so command counts are this test's): the new holder gets its
 * value, its lease time and a greater fence, an old value that no longer holds the lock is refused, a transfer
 * between two threads of one store is one script call, and the grant says whether another client waits, so the
 * threads of a client alone keep handing over without freeing the lock.
 */
class RedisHandOverTest {

    @RegisterExtension
    static final OwnRedisServer server = new OwnRedisServer();

    @Test
    void theNewHolderGetsItsValueLeaseAndAGreaterFenceAndTheOldValueIsRefusedAfterwards() throws Exception {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = BackendStores.open(server.uri("timeout=2s"))) {
            RedisBackend backend = RedisProbe.backendOf(store);
            Grant first = backend.acquire("passed", Duration.ofSeconds(2), Wait.none());

            Grant second = backend.handOver(first, Duration.ofSeconds(40), Thread.currentThread());

            assertThat(second).isNotNull();
            assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
            assertThat(second.ownerToken()).isNotEqualTo(first.ownerToken());
            assertThat(probe.raw().get("distlock:{passed}")).isEqualTo(OwnerValue.of(second));
            assertThat(probe.raw().pttl("distlock:{passed}")).isGreaterThan(30_000);
            assertThat(probe.raw().get("distlock:{passed}:fence")).isEqualTo(Long.toString(second.fencingToken()));

            assertThat(backend.handOver(first, Duration.ofSeconds(5), Thread.currentThread()))

                    .as("the old holder's value").isNull();
            assertThat(probe.raw().get("distlock:{passed}")).isEqualTo(OwnerValue.of(second));
            assertThat(probe.raw().get("distlock:{passed}:fence")).isEqualTo(Long.toString(second.fencingToken()));
            assertThat(backend.release(first)).isFalse();
            assertThat(backend.release(second)).isTrue();
            assertThat(backend.handOver(second, Duration.ofSeconds(5), Thread.currentThread()))
                    .as("a released lock").isNull();
            assertThat(probe.raw().exists("distlock:{passed}")).isFalse();
        }
    }

    @Test
    void aTransferBetweenTwoThreadsOfOneStoreIsOneScriptCall() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = BackendStores.open(server.uri("timeout=2s"))) {
            transfer(store, pool, probe, false); // loads the scripts: a first EVALSHA may meet NOSCRIPT and EVAL
            transfer(store, pool, probe, true);
            assertThat(probe.raw().exists("distlock:{local}")).isFalse();
        } finally {
            pool.shutdownNow();
        }
    }

    private static void transfer(LockStore store, ExecutorService pool, RedisProbe probe, boolean count)
            throws Exception {
        Lease first = store.lock("local").acquire();
        Future<Lease> waiter = pool.submit(() -> store.lock("local", LockOptions.defaults()).acquire());
        Awaitility.await().atMost(Duration.ofSeconds(20))
                .until(() -> Thread.getAllStackTraces().keySet().stream()
                        .anyMatch(t -> HandOverHolder.isQueuedAtLocalGate(t)));
        long scriptsBefore = probe.calls("evalsha") + probe.calls("eval");

        first.release();
        Lease second = waiter.get(20, TimeUnit.SECONDS);

        if (count) {
            assertThat(probe.calls("evalsha") + probe.calls("eval") - scriptsBefore).isEqualTo(1);
        }
        assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
        assertThat(second.isValid()).isTrue();
        second.release();
    }

    @Test
    void theNewGrantSaysWhetherARefusedWaiterOfAnotherClientLeftTheWaitingMarker() throws Exception {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = BackendStores.open(server.uri("timeout=2s"));
                LockStore other = BackendStores.open(server.uri("timeout=2s"))) {
            RedisBackend backend = RedisProbe.backendOf(store);
            Grant first = backend.acquire("marked", Duration.ofSeconds(5), Wait.none());

            Grant unwatched = backend.handOver(first, Duration.ofSeconds(5), Thread.currentThread());
            assertThat(unwatched.othersWaiting()).as("nobody refused yet").isEqualTo(OthersWaiting.NO);

            assertThat(other.lock("marked").tryAcquire()).isEmpty(); // refused: leaves the waiting marker
            assertThat(probe.raw().exists("distlock:{marked}:waiting")).isTrue();
            Grant watched = backend.handOver(unwatched, Duration.ofSeconds(5), Thread.currentThread());
            assertThat(watched.othersWaiting()).as("after another client's refused attempt")
                    .isEqualTo(OthersWaiting.YES);
            assertThat(backend.release(watched)).isTrue();
        }
    }

    @Test
    void threadsOfOneClientAloneKeepHandingOverPastTheBoundWithoutFreeingTheLock() throws Exception {
        int transfers = 2 * 8 + 2; // past the core's bound of 8 hand-overs in a row, twice
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = BackendStores.open(server.uri("timeout=2s"))) {
            transfer(store, pool, probe, false); // loads the scripts
            Lease current = store.lock("alone").acquire();
            List<FutureTask<Lease>> waiters = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < transfers; i++) {
                FutureTask<Lease> waiter = new FutureTask<>(() -> store.lock("alone").acquire());
                Thread thread = new Thread(waiter, "alone-" + i);
                thread.start();
                HandOverHolder.awaitQueuedAtLocalGate(thread);
                waiters.add(waiter);
                threads.add(thread);
            }
            long scriptsBefore = probe.calls("evalsha") + probe.calls("eval");

            for (int i = 0; i < transfers; i++) {
                current.release();
                current = waiters.get(i).get(20, TimeUnit.SECONDS);
            }

            assertThat(probe.calls("evalsha") + probe.calls("eval") - scriptsBefore)
                    .as("one hand-over script per transfer: the lock was never freed, so nobody paused for others")
                    .isEqualTo(transfers);
            current.release();
            assertThat(probe.raw().exists("distlock:{alone}")).isFalse();
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(20));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aReleaseForOthersWakesTheOtherClientAndItsReleaseEndsTheReturningThreadsCourtesy() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore a = BackendStores.open(server.uri("timeout=2s"));
                LockStore b = BackendStores.open(server.uri("timeout=2s"))) {
            RedisBackend backendA = RedisProbe.backendOf(a);
            RedisBackend backendB = RedisProbe.backendOf(b);
            Duration lease = Duration.ofSeconds(60); // a waiter not woken would sleep this long
            Grant held = backendA.acquire("turn", lease, Wait.none());
            Future<Grant> other = pool.submit(() -> backendB.acquire("turn", lease, Wait.forever()));
            Awaitility.await().atMost(Duration.ofSeconds(20))
                    .until(() -> probe.raw().exists("distlock:{turn}:waiting"));

            assertThat(backendA.releaseForOthers(held)).isTrue();

            assertThat(probe.raw().exists("distlock:{turn}:waiting")).as("the marker stays for A's next thread")
                    .isTrue();
            Grant others = other.get(20, TimeUnit.SECONDS); // woken by the release's message, not by the TTL
            Future<Grant> returning = pool.submit(() -> backendA.acquireAfterCourtesy("turn", lease, Wait.forever(),
                    TimeUnit.MINUTES.toNanos(10)));
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> backendA.signals().hasWaiters("turn"));
            assertThat(backendB.release(others)).isTrue(); // finds the marker: publishes

            Grant back = returning.get(20, TimeUnit.SECONDS); // its courtesy of 10 minutes ended at that release
            assertThat(back.fencingToken()).isGreaterThan(others.fencingToken());
            assertThat(backendA.release(back)).isTrue();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theStoredHolderIsTheThreadTheLockWasHandedTo() throws Exception {
        try (LockStore store = BackendStores.open(server.uri("timeout=2s"))) {
            HandOverHolder.adminNamesTheReceivingThread(store, "named");
        }
    }

    @Test
    void aWaiterAskingForALeaseTheStoreRefusesGetsTheRefusalAndTheReleaseStillFreesTheLock() throws Exception {
        // the guard's window (maxLeaseTime) first holds back the first acquire on this server
        String uri = server.uri("timeout=2s&restartGuard=true&maxLeaseTime=5s");
        try (LockStore store = BackendStores.open(uri); LockStore other = BackendStores.open(uri)) {
            Lease first = store.lock("refused", LockOptions.defaults().withLeaseTime(Duration.ofSeconds(5))).acquire();
            FutureTask<Lease> tooLong = new FutureTask<>(() -> store.lock("refused",
                    LockOptions.defaults().withLeaseTime(Duration.ofSeconds(20))).acquire());
            Thread waiter = new Thread(tooLong, "too-long-" + UUID.randomUUID());
            waiter.start();
            Awaitility.await().atMost(Duration.ofSeconds(20))
                    .until(() -> HandOverHolder.isQueuedAtLocalGate(waiter));

            first.release();

            assertThatThrownBy(() -> tooLong.get(20, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxLeaseTime");
            assertThat(other.lock("refused", LockOptions.defaults().withLeaseTime(Duration.ofSeconds(5))).tryAcquire())
                    .as("the released lock is free in the store").isPresent();
            waiter.join(TimeUnit.SECONDS.toMillis(20));
        }
    }
}
