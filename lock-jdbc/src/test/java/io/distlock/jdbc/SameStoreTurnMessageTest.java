package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockException;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The turn of {@link SchemaChanges} is held by another thread, which may be of the same store: with one store in the
 * JVM, a permit count interrupted while that store's own semaphore acquire creates the permit table (blocked in the
 * database by a third session) must not blame "another store of this process", which an operator would look for in
 * vain (the false diagnosis of DEFECTS S94, from the other side of the wait).
 */
@ExtendWith(Databases.class)
class SameStoreTurnMessageTest {

    @Test
    void aWaitForTheTurnHeldByTheSameStoresOtherThreadBlamesNoOtherStore() throws Exception {
        String table = Databases.uniqueTable("same");
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + table
                + "&distlock.socketTimeoutMillis=30000");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (JdbcBackend store = (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
                Connection third = DriverManager.getConnection(JdbcSettings.parse(StoreUri.parse(
                        Databases.postgres())).driverUrl())) {
            third.setAutoCommit(false);
            try (Statement st = third.createStatement()) {
                st.execute("CREATE TABLE " + table + "_permits (x INT)"); // uncommitted: the store's create waits
            }
            Future<?> creating = pool.submit(() -> store.acquirePermit("s", 1, Duration.ofSeconds(30), Wait.none()));
            awaitBlockedCreate(table + "_permits");

            AtomicReference<Thread> thread = new AtomicReference<>();
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            pool.submit(() -> {
                thread.set(Thread.currentThread());
                try {
                    store.heldPermits("s");
                    outcome.complete(null);
                } catch (Throwable t) {
                    Thread.interrupted();
                    outcome.complete(t);
                }
            });
            // parked in the turn's timed wait, not merely inside SchemaChanges (an interrupt before would be pending)
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> thread.get() != null
                    && thread.get().getState() == Thread.State.TIMED_WAITING
                    && Arrays.stream(thread.get().getStackTrace())
                            .anyMatch(e -> e.getClassName().equals(SchemaChanges.class.getName())));
            thread.get().interrupt();
            Throwable raised = outcome.get(5, TimeUnit.SECONDS);
            third.rollback();
            creating.get(30, TimeUnit.SECONDS);

            assertThat(raised).as("a permit count interrupted while the same store's other thread held the turn,"
                    + " the only store of the JVM on its table").isInstanceOf(LockException.class)
                    .hasCauseInstanceOf(InterruptedException.class)
                    .hasMessageNotContaining("another store")
                    .hasMessageContaining("another thread of this process");
        } finally {
            pool.shutdownNow();
        }
    }

    /** Waits until a session of the server waits for a lock in a CREATE TABLE of {@code table}. */
    private static void awaitBlockedCreate(String table) throws Exception {
        try (Connection c = DriverManager.getConnection(JdbcSettings.parse(StoreUri.parse(Databases.postgres()))
                .driverUrl())) {
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM"
                        + " pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%CREATE TABLE%"
                        + table + " %'")) {
                    rs.next();
                    return rs.getInt(1) > 0;
                }
            });
        }
    }
}
