package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.Grant;
import io.distlock.spi.ReleaseSignals;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stores of one table opened and closed from several threads at once while another store of the table stays open
 * (the r10 safety review of S49/S50): the open store keeps the table's shared signals (a release through a store
 * opened after the churn wakes its waiter at once, not at its 10..20 s poll), no count goes astray (every entry and
 * id is gone once the last store closes), and no open or close fails.
 */
@ExtendWith(Databases.class)
class SharedSignalsChurnTest {

    private static final int THREADS = 4;
    private static final int OPENS_PER_THREAD = 8;

    private static JdbcBackend open(String uri) {
        return (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
    }

    private static ReleaseSignals signalsOf(String uri) {
        JdbcSettings settings = JdbcSettings.parse(StoreUri.parse(uri));
        return SharedSignals.peek(StoreUri.redact(settings.driverUrl()), settings.table());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.Stores#all")
    void aStoreKeepsItsTableSignalsWhileOthersOfTheTableOpenAndClose(String label, String firstUri)
            throws Exception {
        // polls 10..20 s apart: a waiter woken sooner was woken by a release signal
        String uri = firstUri + "&distlock.pollMinMillis=20000&distlock.pollMaxMillis=20000";
        int tablesBefore = SharedSignals.tables();
        int idsBefore = PostgresNotices.jvmIds();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
        churn(pool, uri, label); // the count of the table's stores drops to 0 and back, over and over
        assertThat(SharedSignals.tables()).as("tables with signals after the churn alone on %s", label)
                .isEqualTo(tablesBefore);
        assertThat(PostgresNotices.jvmIds()).as("ids after the churn alone on %s", label).isEqualTo(idsBefore);
        try (JdbcBackend kept = open(uri)) {
            churn(pool, uri, label);
            assertThat(signalsOf(uri)).as("the table's signals on %s after %d opens and closes", label,
                    THREADS * OPENS_PER_THREAD).isSameAs(kept.signals());
            assertThat(SharedSignals.tables()).as("tables with signals on %s", label).isEqualTo(tablesBefore + 1);
            assertThat(PostgresNotices.jvmIds()).as("ids on %s", label)
                    .isEqualTo(idsBefore + (label.equals("postgresql") ? 1 : 0));

            try (JdbcBackend releaser = open(uri)) {
                Grant held = releaser.acquire("wake", Duration.ofSeconds(60), Wait.none());
                assertThat(held).isNotNull();
                CompletableFuture<Grant> waiter = CompletableFuture.supplyAsync(() -> {
                    try {
                        return kept.acquire("wake", Duration.ofSeconds(60), Wait.upTo(Duration.ofSeconds(60)));
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }, pool);
                // the waiter parked on the shared signals: it shows as a waiter there
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                        .until(() -> kept.signals().hasWaiters("wake"));
                long released = System.nanoTime();
                assertThat(releaser.release(held)).isTrue();
                Grant won = waiter.get(60, TimeUnit.SECONDS);
                long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released);
                assertThat(won).isNotNull();
                assertThat(tookMillis).as("ms from a release in a store opened after the churn to the waiter of"
                        + " the kept store on %s (a poll is 10..20 s)", label).isLessThan(5000);
                kept.release(won);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(SharedSignals.tables()).as("tables with signals once all closed on %s", label)
                .isEqualTo(tablesBefore);
        assertThat(PostgresNotices.jvmIds()).as("ids once all closed on %s", label).isEqualTo(idsBefore);
    }

    /** {@link #THREADS} threads each open, use and close {@link #OPENS_PER_THREAD} stores of {@code uri} at once. */
    private static void churn(ExecutorService pool, String uri, String label) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> churn = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            churn.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < OPENS_PER_THREAD; i++) {
                    try (JdbcBackend other = open(uri)) {
                        Grant g = other.acquire("churn" + thread, Duration.ofSeconds(30), Wait.none());
                        other.release(g);
                        assertThat(signalsOf(uri)).as("the table's signals while a store of it is open on %s",
                                label).isSameAs(other.signals());
                    }
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : churn) {
            f.get(300, TimeUnit.SECONDS); // an open or close that threw fails here
        }
    }
}
