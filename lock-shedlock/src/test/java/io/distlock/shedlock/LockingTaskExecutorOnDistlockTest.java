package io.distlock.shedlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.LockStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor.TaskResult;
import net.javacrumbs.shedlock.core.LockingTaskExecutor.TaskWithResult;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ShedLock's own {@link DefaultLockingTaskExecutor} on three nodes (three store clients, three providers) over one
 * real store.
 */
class LockingTaskExecutorOnDistlockTest {

    private final List<LockStore> stores = new ArrayList<>();
    private final List<DistlockLockProvider> providers = new ArrayList<>();
    private final List<DefaultLockingTaskExecutor> nodes = new ArrayList<>();

    private void startNodes(String kind) {
        String uri = TestStores.uri(kind, "shedlock");
        for (int i = 0; i < 3; i++) {
            LockStore store = LockStore.open(uri);
            DistlockLockProvider provider = new DistlockLockProvider(store);
            stores.add(store);
            providers.add(provider);
            nodes.add(new DefaultLockingTaskExecutor(provider));
        }
    }

    @AfterEach
    void stopNodes() {
        providers.forEach(DistlockLockProvider::close);
        stores.forEach(LockStore::close);
    }

    private static LockConfiguration config(String name, Duration atMost, Duration atLeast) {
        return new LockConfiguration(Instant.now(), name, atMost, atLeast);
    }

    /** executeWithLock with a result; its {@code throws Throwable} narrowed for use in a Callable. */
    private static <T> TaskResult<T> execute(DefaultLockingTaskExecutor node, TaskWithResult<T> task,
            LockConfiguration config) throws Exception {
        try {
            return node.executeWithLock(task, config);
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("the task threw a bare Throwable", t);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"redis", "zookeeper", "postgres"})
    void eachRoundRunsOnceWhileTheOtherNodesAreRefused(String kind) throws Exception {
        startNodes(kind);
        int rounds = 5;
        int runs = 0;
        int skips = 0;
        ExecutorService threads = Executors.newFixedThreadPool(3);
        try {
            for (int round = 0; round < rounds; round++) {
                CyclicBarrier start = new CyclicBarrier(3);
                CountDownLatch othersRefused = new CountDownLatch(2);
                AtomicInteger inside = new AtomicInteger();
                List<Future<Boolean>> attempts = new ArrayList<>();
                for (DefaultLockingTaskExecutor node : nodes) {
                    attempts.add(threads.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        TaskResult<Integer> result = execute(node, () -> {
                            assertThat(inside.incrementAndGet()).as("one node inside at a time").isEqualTo(1);
                            // hold the lock until both other nodes have been refused: they really contended
                            boolean refused = othersRefused.await(20, TimeUnit.SECONDS);
                            inside.decrementAndGet();
                            return refused ? 1 : 0;
                        }, config("nightly-report", Duration.ofSeconds(30), Duration.ZERO));
                        if (!result.wasExecuted()) {
                            othersRefused.countDown();
                            return false;
                        }
                        assertThat(result.getResult()).as("the others were refused while it ran").isEqualTo(1);
                        return true;
                    }));
                }
                int executed = 0;
                for (Future<Boolean> attempt : attempts) {
                    executed += attempt.get(60, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertThat(executed).as("round %d runs once", round).isEqualTo(1);
                runs += executed;
                skips += 3 - executed;
            }
        } finally {
            threads.shutdownNow();
        }
        System.err.printf("LockingTaskExecutorOnDistlockTest[%s]: %d rounds, %d runs, %d skipped%n", kind, rounds,
                runs, skips);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"redis", "zookeeper", "postgres"})
    void lockAtLeastForKeepsTheLockAfterAShortTaskOnEveryNode(String kind) {
        startNodes(kind);
        Duration atLeast = Duration.ofMillis(1500);
        AtomicInteger runs = new AtomicInteger();
        long before = System.nanoTime();
        nodes.get(0).executeWithLock((Runnable) runs::incrementAndGet,
                config("hourly-sync", Duration.ofSeconds(30), atLeast));
        assertThat(runs).hasValue(1);
        // the task is over, the lock is not: neither another node nor the same one may run it again yet
        nodes.get(1).executeWithLock((Runnable) runs::incrementAndGet,
                config("hourly-sync", Duration.ofSeconds(30), atLeast));
        nodes.get(0).executeWithLock((Runnable) runs::incrementAndGet,
                config("hourly-sync", Duration.ofSeconds(30), atLeast));
        long checkedAt = System.nanoTime();
        if (checkedAt - before < atLeast.toNanos()) {
            assertThat(runs).as("no second run within lockAtLeastFor").hasValue(1);
        }
        AtomicInteger attempts = new AtomicInteger();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> {
            attempts.incrementAndGet();
            nodes.get(2).executeWithLock((Runnable) runs::incrementAndGet,
                    config("hourly-sync", Duration.ofSeconds(30), Duration.ZERO));
            return runs.get() == 2;
        });
        long freedAfter = System.nanoTime() - before;
        assertThat(Duration.ofNanos(freedAfter)).as("free only after lockAtLeastFor").isGreaterThanOrEqualTo(atLeast);
        System.err.printf("LockingTaskExecutorOnDistlockTest[%s]: lockAtLeastFor %d ms, next run after %d ms, "
                + "%d refused polls%n", kind, atLeast.toMillis(), freedAfter / 1_000_000, attempts.get() - 1);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"redis", "zookeeper", "postgres"})
    void lockAtMostForFreesTheLockOfANodeThatNeverUnlocks(String kind) {
        startNodes(kind);
        Duration atMost = Duration.ofSeconds(1);
        long before = System.nanoTime();
        SimpleLock hung = providers.get(0).lock(config("stuck-job", atMost, Duration.ZERO)).orElseThrow();
        assertThat(providers.get(0).lease("stuck-job")).isPresent();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .until(() -> providers.get(1).lock(config("stuck-job", Duration.ofSeconds(30), Duration.ZERO))
                        .map(lock -> {
                            lock.unlock();
                            return true;
                        }).orElse(false));
        assertThat(Duration.ofNanos(System.nanoTime() - before)).isGreaterThanOrEqualTo(atMost);
        hung.unlock(); // late unlock of the capped lock is harmless
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"redis", "zookeeper", "postgres"})
    void extendingKeepsTheLockPastItsFirstLockAtMostFor(String kind) {
        startNodes(kind);
        SimpleLock lock = providers.get(0).lock(config("long-job", Duration.ofSeconds(1), Duration.ZERO))
                .orElseThrow();
        long token = providers.get(0).lease("long-job").orElseThrow().fencingToken();
        SimpleLock extended = lock.extend(Duration.ofSeconds(30), Duration.ZERO).orElseThrow();
        // for 1.5 s, past the first lockAtMostFor, the other node is refused at every try
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> providers.get(1).lock(config("long-job", Duration.ofSeconds(30), Duration.ZERO))
                        .isEmpty());
        assertThat(providers.get(0).lease("long-job").orElseThrow().fencingToken()).isEqualTo(token);
        extended.unlock();
        assertThat(providers.get(1).lock(config("long-job", Duration.ofSeconds(30), Duration.ZERO))).isPresent();
    }
}
