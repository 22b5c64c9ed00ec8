package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.StoreUri;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.awaitility.Awaitility;

/**
 * A PostgreSQL store whose pool has one connection, which a thread of the test holds from {@link #hold} until
 * {@link #letGo}: a call on the store meanwhile waits in the pool, where the tests interrupt it (DEFECTS S86, S87,
 * S102-S106).
 */
final class OneBusyConnection implements AutoCloseable {

    /** What a call returned or raised, and whether its thread's interrupt flag was set afterwards. */
    record Outcome(Object result, Throwable raised, boolean flagAfter) {
    }

    /** A call on the store that may throw anything. */
    @FunctionalInterface
    interface Call {
        Object on(JdbcBackend store) throws Exception;
    }

    private final JdbcBackend store;
    private final ExecutorService threads = Executors.newFixedThreadPool(3);
    private final CountDownLatch letGo = new CountDownLatch(1);
    private Future<?> holder;

    private OneBusyConnection(JdbcBackend store) {
        this.store = store;
    }

    /** A store on a fresh table named from {@code tablePrefix}, whose pool waits {@code connectTimeoutMillis}. */
    static OneBusyConnection open(String tablePrefix, long connectTimeoutMillis) {
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + Databases.uniqueTable(tablePrefix)
                + "&distlock.poolSize=1&distlock.connectTimeoutMillis=" + connectTimeoutMillis);
        return new OneBusyConnection((JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri)));
    }

    JdbcBackend store() {
        return store;
    }

    /** Takes the pool's one connection on a thread of its own, until {@link #letGo}. */
    void hold() throws InterruptedException {
        CountDownLatch holding = new CountDownLatch(1);
        holder = threads.submit(() -> store.withConnection("holding the one connection", c -> {
            holding.countDown();
            try {
                return letGo.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException("the holder was interrupted", e);
            }
        }));
        assertThat(holding.await(10, TimeUnit.SECONDS)).as("the one connection taken").isTrue();
    }

    /** Gives the connection back to the pool and waits for the holder to have done so. */
    void letGo() throws Exception {
        letGo.countDown();
        holder.get(10, TimeUnit.SECONDS);
    }

    /**
     * Runs {@code call} on a thread of its own while another interrupts that thread without pause, from before the
     * call's first wait until it ends; its outcome, waited for at most {@code bound}.
     */
    Outcome underInterruptStorm(Call call, Duration bound) throws Exception {
        AtomicReference<Thread> thread = new AtomicReference<>();
        CompletableFuture<Outcome> outcome = start(call, thread);
        threads.submit(() -> {
            while (!outcome.isDone()) {
                thread.get().interrupt();
                LockSupport.parkNanos(50_000); // paced, so the call's thread gets the cores in between
            }
            return null;
        });
        try {
            return outcome.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            outcome.complete(null); // ends the interrupts whatever happened
        }
    }

    /**
     * Runs {@code call} on a thread of its own, interrupts it once it waits in the pool, and gives the connection
     * back once the call ended or its wait took the interrupt; its outcome.
     */
    Outcome interruptedOnceInThePoolWait(Call call) throws Exception {
        AtomicReference<Thread> thread = new AtomicReference<>();
        CompletableFuture<Outcome> outcome = start(call, thread);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> Arrays.stream(thread.get().getStackTrace())
                .anyMatch(e -> e.getClassName().endsWith("ConcurrentBag")));
        thread.get().interrupt();
        // the call ended, or its wait took the interrupt (the flag cleared) and it waits on: either way, the
        // connection may come back now without racing the interrupt
        Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> outcome.isDone() || !thread.get().isInterrupted());
        letGo();
        return outcome.get(10, TimeUnit.SECONDS);
    }

    /** Starts {@code call} on a thread of its own, set in {@code thread} before {@code call} runs. */
    private CompletableFuture<Outcome> start(Call call, AtomicReference<Thread> thread) throws InterruptedException {
        CompletableFuture<Outcome> outcome = new CompletableFuture<>();
        CountDownLatch started = new CountDownLatch(1);
        threads.submit(() -> {
            thread.set(Thread.currentThread());
            started.countDown();
            try {
                Object result = call.on(store);
                outcome.complete(new Outcome(result, null, Thread.interrupted()));
            } catch (Throwable t) {
                outcome.complete(new Outcome(null, t, Thread.interrupted()));
            }
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).as("the call's thread started").isTrue();
        return outcome;
    }

    @Override
    public void close() {
        letGo.countDown();
        threads.shutdownNow();
        store.close();
    }
}
