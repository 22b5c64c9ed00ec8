package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.DistributedSemaphore;
import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import io.distlock.tck.fixture.StoreServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Attack (review r9) on the core's per-name state on a real server: one thread holds a lock of a name nested and
 * three permits of the semaphore of the same name; the first permit (the state's own field, the others in its list)
 * is deleted from the server behind the store's back while another thread of the store queues. The background
 * renewal finds it gone: only that permit is lost, the queued thread takes its place, the lock and the other permits
 * stay valid, and another client never gets a fourth permit. And a close while that thread holds both kinds and
 * others queue for each: every waiter ends, and the server has freed the lock and both permits at once.
 */
class RedisMoreHeldAttackTest {

    private static final String URI = StoreServers.redis();
    private static final Duration BOUND = Duration.ofSeconds(20);

    @Test
    void aPermitLostFromTheFieldWhileOthersAreInTheListIsTheOnlyOneLost() throws Exception {
        String prefix = "moreheld-" + UUID.randomUUID().toString().substring(0, 8) + ":";
        String uri = URI + "?keyPrefix=" + prefix + "&timeout=5s";
        LockOptions shortLease = LockOptions.defaults().withLeaseTime(Duration.ofMillis(1500));
        ExecutorService pool = Executors.newCachedThreadPool();
        try (LockStore store = BackendStores.open(uri); LockStore other = BackendStores.open(uri);
                RedisProbe probe = new RedisProbe(java.net.URI.create(URI).getPort())) {
            Lease lock = store.lock("n", shortLease).acquire();
            Lease nested = store.lock("n", shortLease).acquire();
            DistributedSemaphore sem = store.semaphore("n", 3, shortLease);
            List<Lease> permits = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                permits.add(sem.acquire());
            }
            AtomicReference<Thread> waiter = new AtomicReference<>();
            Future<Lease> queued = pool.submit(() -> {
                waiter.set(Thread.currentThread());
                return sem.acquire();
            });
            // parked: queued at the name's local gate, the store's three places being this store's
            Awaitility.await().atMost(BOUND).until(() -> waiter.get() != null
                    && waiter.get().getState() == Thread.State.WAITING || queued.isDone());
            assertThat(queued.isDone()).as("a fourth permit of a full semaphore").isFalse();

            String first = memberWithFence(probe, prefix, permits.get(0).fencingToken());
            assertThat(probe.raw().zrem(keys(prefix).key(RedisKeys.Kind.SEM_HOLDERS, "n"), first)).isEqualTo(1);

            Awaitility.await().atMost(BOUND).until(() -> !permits.get(0).isValid());
            Lease fourth = queued.get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertThat(List.of(permits.get(1), permits.get(2), fourth, lock)).as("leases still valid")
                    .allMatch(Lease::isValid);
            assertThat(other.semaphore("n", 3, shortLease).tryAcquire()).as("a permit over the limit").isEmpty();
            assertThat(other.lock("n", shortLease).tryAcquire()).as("the nested lock").isEmpty();

            assertThatThrownBy(permits.get(0)::release).isInstanceOf(LockLostException.class);
            permits.get(2).release();
            fourth.release();
            permits.get(1).release();
            nested.release();
            lock.release();
            List<Lease> all = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                all.add(other.semaphore("n", 3, shortLease).tryAcquire(BOUND).orElseThrow());
            }
            other.lock("n", shortLease).tryAcquire(BOUND).orElseThrow().release();
            all.forEach(Lease::release);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aCloseWhileOneThreadHoldsBothKindsOfANameAndOthersQueueFreesAllInTheServerAtOnce() throws Exception {
        String prefix = "moreheld-" + UUID.randomUUID().toString().substring(0, 8) + ":";
        String uri = URI + "?keyPrefix=" + prefix + "&timeout=5s";
        LockOptions longLease = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(60));
        ExecutorService pool = Executors.newCachedThreadPool();
        try (LockStore other = BackendStores.open(uri); LockStore store = BackendStores.open(uri)) {
            store.lock("c", longLease).acquire();
            store.lock("c", longLease).acquire(); // nested, never released: the close frees it
            DistributedSemaphore sem = store.semaphore("c", 2, longLease);
            sem.acquire();
            sem.acquire();
            List<AtomicReference<Thread>> threads = new ArrayList<>();
            List<Future<Lease>> waiters = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                AtomicReference<Thread> t = new AtomicReference<>();
                threads.add(t);
                boolean lock = i % 2 == 0;
                waiters.add(pool.submit(() -> {
                    t.set(Thread.currentThread());
                    return lock ? store.lock("c", longLease).acquire() : sem.acquire();
                }));
            }
            Awaitility.await().atMost(BOUND).until(() -> threads.stream().allMatch(t -> t.get() != null
                    && t.get().getState() == Thread.State.WAITING));
            long start = System.nanoTime();
            store.close();
            for (Future<Lease> w : waiters) {
                assertThatThrownBy(() -> w.get(BOUND.toSeconds(), TimeUnit.SECONDS))
                        .hasCauseInstanceOf(IllegalStateException.class);
            }
            // freed in the server by the close, not left for the 60 s lease
            other.lock("c", longLease).tryAcquire().orElseThrow().release();
            Lease p1 = other.semaphore("c", 2, longLease).tryAcquire().orElseThrow();
            Lease p2 = other.semaphore("c", 2, longLease).tryAcquire().orElseThrow();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("close and the other client's acquires")
                    .isLessThan(BOUND);
            p1.release();
            p2.release();
        } finally {
            pool.shutdownNow();
        }
    }

    private static RedisKeys keys(String prefix) {
        return new RedisKeys(prefix);
    }

    /** The holder-set member (owner value) whose fencing token is {@code token}. */
    private static String memberWithFence(RedisProbe probe, String prefix, long token) {
        Map<String, String> fences = probe.raw().hgetAll(keys(prefix).key(RedisKeys.Kind.SEM_FENCES, "n"));
        return fences.entrySet().stream().filter(e -> Long.parseLong(e.getValue()) == token).map(Map.Entry::getKey)
                .findFirst().orElseThrow(() -> new AssertionError("no holder with token " + token + ": " + fences));
    }
}
