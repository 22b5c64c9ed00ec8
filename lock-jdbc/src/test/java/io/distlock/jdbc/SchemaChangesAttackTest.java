package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.distlock.LockException;
import io.distlock.StoreUnavailableException;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Hostile use of {@link SchemaChanges} on PostgreSQL: a store whose table creation is blocked in the database (a
 * third session's uncommitted {@code CREATE TABLE} of the same name) holds the in-JVM turn for as long as its socket
 * timeout lets it; what that costs the other stores of the JVM.
 */
@ExtendWith(Databases.class)
class SchemaChangesAttackTest {

    /**
     * A store opening on another table, which only shared a stripe with the blocked one, waited for it and failed
     * after its own socket timeout, blaming "another store ... creating table" its own, healthy table (DEFECTS S72).
     */
    @Test
    void aStoreOnAnotherTableIsNotHeldUpByATableCreationBlockedInTheDatabase() throws Exception {
        String blocked = Databases.uniqueTable("blk");
        String url;
        try (JdbcBackend probe = open(Databases.withOptions(Databases.postgres(), "distlock.table=" + blocked + "x"))) {
            url = probe.withConnection("reading the URL", c -> c.getMetaData().getURL());
        }
        String other = sameStripeAs(url, blocked);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection third = DriverManager.getConnection(JdbcSettings.parse(StoreUri.parse(
                Databases.postgres())).driverUrl())) {
            third.setAutoCommit(false);
            try (Statement st = third.createStatement()) {
                st.execute("CREATE TABLE " + blocked + " (x INT)"); // uncommitted: a create of the name waits for it
            }
            Future<JdbcBackend> first = pool.submit(() -> open(Databases.withOptions(Databases.postgres(),
                    "distlock.table=" + blocked + "&distlock.socketTimeoutMillis=30000")));
            awaitBlockedCreate(blocked);

            long start = System.nanoTime();
            Throwable failure = catchThrowable(() -> open(Databases.withOptions(Databases.postgres(),
                    "distlock.table=" + other + "&distlock.socketTimeoutMillis=2000")).close());
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            third.rollback();
            first.get(30, TimeUnit.SECONDS).close();
            assertThat(failure).as("opening a store on " + other + ", which only shares a stripe with " + blocked
                    + ", after " + millis + " ms").isNull();
            assertThat(SchemaChanges.turnsKept()).as("turns kept once every store has made its table").isZero();
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A semaphore acquire interrupted while another store of the JVM creates the permit table ends with
     * {@link InterruptedException}, as an interrupt anywhere else in its wait: it raised a
     * {@code StoreUnavailableException} ("database ... unavailable ...: interrupted while another store ...") for a
     * healthy database, and evicted its healthy connection (DEFECTS S73).
     */
    @Test
    void aSemaphoreAcquireInterruptedWhileAnotherStoreCreatesThePermitTableRaisesInterruptedException()
            throws Exception {
        String table = Databases.uniqueTable("intr");
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + table);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (JdbcBackend creator = open(uri + "&distlock.socketTimeoutMillis=30000"); JdbcBackend waiter = open(uri);
                Connection third = DriverManager.getConnection(JdbcSettings.parse(StoreUri.parse(
                        Databases.postgres())).driverUrl())) {
            third.setAutoCommit(false);
            try (Statement st = third.createStatement()) {
                st.execute("CREATE TABLE " + table + "_permits (x INT)");
            }
            Future<?> creating = pool.submit(() -> creator.acquirePermit("s", 1, Duration.ofSeconds(30), Wait.none()));
            awaitBlockedCreate(table + "_permits");

            AtomicReference<Thread> thread = new AtomicReference<>();
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            AtomicBoolean flagAfter = new AtomicBoolean();
            pool.submit(() -> {
                thread.set(Thread.currentThread());
                try {
                    waiter.acquirePermit("s", 1, Duration.ofSeconds(30), Wait.upTo(Duration.ofSeconds(20)));
                    outcome.complete(null);
                } catch (Throwable t) {
                    flagAfter.set(Thread.interrupted());
                    outcome.complete(t);
                }
            });
            awaitWaitingForTheTurn(thread);
            thread.get().interrupt();
            Throwable raised = outcome.get(5, TimeUnit.SECONDS);
            third.rollback();
            creating.get(30, TimeUnit.SECONDS);
            assertThat(raised).as("the interrupted semaphore acquire's failure").isInstanceOf(InterruptedException.class);
            assertThat(flagAfter).as("the interrupt flag after InterruptedException, cleared as by any").isFalse();
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A store open interrupted while another store of the JVM creates the lock table fails at once, as an interrupt
     * (a {@link LockException} whose cause is the {@link InterruptedException}, the thread's flag set again: open
     * cannot throw InterruptedException), never as an outage of the healthy database.
     */
    @Test
    void aStoreOpenInterruptedWhileAnotherStoreCreatesTheTableFailsAsAnInterruptNotAnOutage() throws Exception {
        String table = Databases.uniqueTable("ointr");
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + table
                + "&distlock.socketTimeoutMillis=30000");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Connection third = DriverManager.getConnection(JdbcSettings.parse(StoreUri.parse(
                Databases.postgres())).driverUrl())) {
            third.setAutoCommit(false);
            try (Statement st = third.createStatement()) {
                st.execute("CREATE TABLE " + table + " (x INT)"); // uncommitted: a create of the name waits for it
            }
            Future<JdbcBackend> creator = pool.submit(() -> open(uri));
            awaitBlockedCreate(table);

            AtomicReference<Thread> thread = new AtomicReference<>();
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            AtomicBoolean flagAfter = new AtomicBoolean();
            pool.submit(() -> {
                thread.set(Thread.currentThread());
                try {
                    open(uri).close();
                    outcome.complete(null);
                } catch (Throwable t) {
                    flagAfter.set(Thread.interrupted());
                    outcome.complete(t);
                }
            });
            awaitWaitingForTheTurn(thread);
            long start = System.nanoTime();
            thread.get().interrupt();
            Throwable raised = outcome.get(5, TimeUnit.SECONDS);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            third.rollback();
            creator.get(30, TimeUnit.SECONDS).close();
            assertThat(raised).as("the interrupted open's failure, " + millis + " ms after the interrupt")
                    .isInstanceOf(LockException.class).isNotInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("interrupted").hasCauseInstanceOf(InterruptedException.class);
            assertThat(flagAfter).as("the interrupt flag after the failed open").isTrue();
            assertThat(SchemaChanges.turnsKept()).as("turns kept once the interrupted open and the creator are done")
                    .isZero();
            open(uri).close(); // a later open in the same JVM, on the table the interrupted one waited for
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A store whose wait for another store of the JVM creating the permit table runs out keeps its pooled
     * connection: the wait failed, not the connection. Its one pooled connection (poolSize 1) is the same server
     * backend before and after.
     */
    @Test
    void aTurnThatRanOutKeepsTheHealthyPooledConnection() throws Exception {
        String table = Databases.uniqueTable("evct");
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + table);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (JdbcBackend creator = open(uri + "&distlock.socketTimeoutMillis=30000");
                JdbcBackend waiter = open(uri + "&distlock.socketTimeoutMillis=1000&distlock.poolSize=1");
                Connection third = DriverManager.getConnection(JdbcSettings.parse(StoreUri.parse(
                        Databases.postgres())).driverUrl())) {
            int before = waiter.withConnection("reading the backend", SchemaChangesAttackTest::backend);
            third.setAutoCommit(false);
            try (Statement st = third.createStatement()) {
                st.execute("CREATE TABLE " + table + "_permits (x INT)");
            }
            Future<?> creating = pool.submit(() -> creator.acquirePermit("s", 1, Duration.ofSeconds(30), Wait.none()));
            awaitBlockedCreate(table + "_permits");

            Throwable raised = catchThrowable(() -> waiter.heldPermits("s"));
            int after = waiter.withConnection("reading the backend", SchemaChangesAttackTest::backend);
            third.rollback();
            creating.get(30, TimeUnit.SECONDS);
            assertThat(raised).as("the permit count while another store creates the table")
                    .isInstanceOf(StoreUnavailableException.class).hasMessageContaining("another thread of this process");
            assertThat(after).as("the backend of the waiter's one pooled connection after its turn ran out")
                    .isEqualTo(before);
        } finally {
            pool.shutdownNow();
        }
    }

    private static int backend(Connection c) throws java.sql.SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** Waits until {@code thread} waits in SchemaChanges for the turn another store holds. */
    private static void awaitWaitingForTheTurn(AtomicReference<Thread> thread) {
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> thread.get() != null
                && Arrays.stream(thread.get().getStackTrace())
                        .anyMatch(e -> e.getClassName().equals(SchemaChanges.class.getName())));
    }

    /** A table name other than {@code table} whose turn in SchemaChanges' 64 stripes is that of {@code table}. */
    private static String sameStripeAs(String url, String table) {
        int stripe = Math.floorMod((url + '\u0000' + table).hashCode(), 64);
        for (int i = 0; ; i++) {
            String candidate = table + "o" + i;
            if (Math.floorMod((url + '\u0000' + candidate).hashCode(), 64) == stripe) {
                return candidate;
            }
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

    private static JdbcBackend open(String uri) {
        return (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
    }
}
