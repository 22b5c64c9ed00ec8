package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.DistributedSemaphore;
import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.spi.ReleaseSignals;
import io.distlock.spi.StoreUri;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stores that use semaphores only, on tables of their own, leave nothing behind in the JVM-wide maps once closed (the
 * SharedSignalsLeakTest pattern, with semaphores whose waiters waited and announced); and a store closing while
 * semaphore waiters wait wakes them, so they end with the close, not at a poll (the r11 review of S61).
 */
@ExtendWith(Databases.class)
class SemaphoreSignalsLeakTest {

    private static final int STORES = 1000;
    /** PostgreSQL stores each start a listener connection: fewer of them, as many kinds of use. */
    private static final int POSTGRES_STORES = 100;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.Stores#all")
    void semaphoreStoresOpenedAndClosedLeaveNothingBehind(String label, String firstUri) throws Exception {
        int tablesBefore = SharedSignals.tables();
        int idsBefore = PostgresNotices.jvmIds();
        int announcedBefore = staticSize("ANNOUNCED_IDS");
        int openBefore = staticSize("OPEN_BY_ID");
        int stores = label.equals("h2") ? STORES : POSTGRES_STORES;
        for (int i = 0; i < stores; i++) {
            String uri = firstUri.replace("distlock.table=", "distlock.table=s" + i + "_");
            try (LockStore store = BackendStores.open(uri)) {
                DistributedSemaphore semaphore = store.semaphore("x", 1);
                Lease held = semaphore.tryAcquire().orElseThrow();
                if (i % 10 == 0) { // a waiter that found it full, announced and gave up
                    assertThat(semaphore.tryAcquire(Duration.ofMillis(20))).isEmpty();
                }
                held.release();
            }
        }
        assertThat(SharedSignals.tables()).as("tables with shared signals kept after %d stores on %s closed", stores,
                label).isEqualTo(tablesBefore);
        assertThat(PostgresNotices.jvmIds()).as("ids kept after %d stores on %s closed", stores, label)
                .isEqualTo(idsBefore);
        assertThat(staticSize("ANNOUNCED_IDS")).as("announced ids kept on %s", label).isEqualTo(announcedBefore);
        assertThat(staticSize("OPEN_BY_ID")).as("open ids kept on %s", label).isEqualTo(openBefore);
    }

    /**
     * Semaphore waiters of a store that closes end with the close: the close wakes them ({@code closing()} signals
     * the semaphores' wake-ups), and each acquire fails as closed.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.Stores#all")
    void semaphoreWaitersOfAClosingStoreEndWithIt(String label, String uri) throws Exception {
        String other = uri.startsWith("jdbc:h2:") ? uri : uri + "&ApplicationName=distlock-holder";
        try (LockStore holder = BackendStores.open(other)) {
            Lease held = holder.semaphore("full", 1).tryAcquire().orElseThrow();
            LockStore store = BackendStores.open(uri);
            JdbcBackend backend = (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
            try (ReleaseSignals.Ticket probe = backend.permitTable().releaseProbe("full")) {
                List<CompletableFuture<Boolean>> waiters = new ArrayList<>();
                List<Thread> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
                for (int i = 0; i < 4; i++) {
                    waiters.add(CompletableFuture.supplyAsync(() -> {
                        threads.add(Thread.currentThread());
                        try {
                            return store.semaphore("full", 1).tryAcquire(Duration.ofMinutes(1)).isPresent();
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    }, pool));
                }
                // every waiter parked: one on the semaphore's wake-ups (it found it full), the others queued behind
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> threads.size() == 4
                        && threads.stream().allMatch(SemaphoreSignalsLeakTest::parked)
                        && threads.stream().anyMatch(SemaphoreSignalsLeakTest::parkedOnSignals));
                backend.closing();
                assertThat(probe.await(0)).as("closing() woke the semaphore waiters on %s", label).isTrue();
                long closedAt = System.nanoTime();
                store.close();
                for (CompletableFuture<Boolean> w : waiters) {
                    assertThatThrownBy(() -> w.get(10, TimeUnit.SECONDS))
                            .hasCauseInstanceOf(IllegalStateException.class);
                }
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closedAt))
                        .as("ms from the close to the last waiter's end on %s", label).isLessThan(5000);
            } finally {
                pool.shutdownNow();
                backend.close();
            }
            held.release();
        }
    }

    private static int staticSize(String field) throws ReflectiveOperationException {
        java.lang.reflect.Field f = PostgresNotices.class.getDeclaredField(field);
        f.setAccessible(true);
        Object value = f.get(null);
        return value instanceof Set<?> set ? set.size() : ((java.util.Map<?, ?>) value).size();
    }

    private static boolean parked(Thread t) {
        return t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING;
    }

    private static boolean parkedOnSignals(Thread t) {
        return parked(t) && java.util.Arrays.stream(t.getStackTrace())
                .anyMatch(f -> f.getClassName().startsWith("io.distlock.spi.ReleaseSignals"));
    }
}
