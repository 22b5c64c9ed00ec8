package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Attacks on the attempt a MariaDB store sends on its turn's own connection once its turn comes (S109), against the
 * machine's MariaDB: that connection is not one of the pool's, which HikariCP checks before lending one idle for
 * 500 ms and replaces if it broke.
 */
@ExtendWith(Databases.class)
class MariaDbTurnAttemptAttackTest {

    private static final Duration WITHIN = Duration.ofSeconds(10);

    private final String table = Databases.uniqueTable("turnatt");
    private final String uri = Databases.withOptions(Databases.mariadb(), "distlock.table=" + table
            + "&distlock.pollMaxMillis=200&distlock.socketTimeoutMillis=4000");
    private final ExecutorService waiters = Executors.newFixedThreadPool(2);
    private TurnLockWatch watch;

    @BeforeEach
    void connect() throws SQLException {
        watch = new TurnLockWatch(uri, table);
    }

    @AfterEach
    void close() throws Exception {
        waiters.shutdownNow();
        assertThat(waiters.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        watch.close();
    }

    /**
     * b waits at the head of the queue (its worker holds the turn lock) while a holds the lock it took without a
     * turn; an operator kills b's turn connection (or the server's wait_timeout, a proxy's idle cut). The database is
     * fine: b's wait must end with the lock once a releases it, as when its attempts borrowed a pooled connection.
     */
    @Test
    void aWaiterAtTheHeadWhoseTurnConnectionWasKilledStillGetsTheLock() throws Exception {
        String name = "head-killed";
        try (LockStore a = LockStore.open(uri + "&connectionAttributes=hk:a");
                LockStore b = LockStore.open(uri + "&connectionAttributes=hk:b")) {
            Lease first = a.lock(name).acquire();
            Future<Object> byB = waiters.submit(() -> {
                try {
                    return b.lock(name).tryAcquire(WITHIN).orElse(null);
                } catch (RuntimeException e) {
                    return e;
                }
            });
            Awaitility.await().atMost(WITHIN).pollInterval(Duration.ofMillis(1))
                    .until(() -> watch.holder(watch.key(name)) > 0);
            watch.kill(watch.holder(watch.key(name)));
            first.release();
            Object outcome = byB.get(WITHIN.toMillis() + 5000, TimeUnit.MILLISECONDS);
            assertThat(outcome).as("b's wait after its turn connection was killed, the lock released by a")
                    .isInstanceOf(Lease.class);
            ((Lease) outcome).release();
        }
    }

    /**
     * As above, with two threads of b waiting for the name one after another, so b always has a waiter: the turn
     * whose connection was killed is never given up while someone waits, and every attempt at the head is sent on
     * that dead connection.
     */
    @Test
    void overlappingWaitersAtTheHeadRecoverFromAKilledTurnConnection() throws Exception {
        String name = "head-killed-busy";
        try (LockStore a = LockStore.open(uri + "&connectionAttributes=hkb:a");
                LockStore b = LockStore.open(uri + "&connectionAttributes=hkb:b")) {
            Lease first = a.lock(name).acquire();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger failures = new AtomicInteger();
            AtomicInteger grants = new AtomicInteger();
            AtomicReference<Throwable> last = new AtomicReference<>();
            Runnable loop = () -> {
                while (!stop.get()) {
                    try {
                        Optional<Lease> l = b.lock(name).tryAcquire(Duration.ofSeconds(2));
                        if (l.isPresent()) {
                            grants.incrementAndGet();
                            l.get().release();
                        }
                    } catch (RuntimeException e) {
                        failures.incrementAndGet();
                        last.set(e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            };
            Future<?> w1 = waiters.submit(loop);
            Awaitility.await().atMost(WITHIN).pollInterval(Duration.ofMillis(1))
                    .until(() -> watch.holder(watch.key(name)) > 0);
            Future<?> w2 = waiters.submit(loop);
            watch.kill(watch.holder(watch.key(name)));
            first.release();
            try {
                Awaitility.await().atMost(WITHIN).pollInterval(Duration.ofMillis(10)).until(() -> grants.get() > 0);
            } finally {
                stop.set(true);
                w1.get(WITHIN.toMillis(), TimeUnit.MILLISECONDS);
                w2.get(WITHIN.toMillis(), TimeUnit.MILLISECONDS);
                System.out.println("MariaDbTurnAttemptAttackTest: " + grants.get() + " grants, " + failures.get()
                        + " failed acquires; last: " + last.get());
            }
            assertThat(failures.get()).as("acquires of b that failed on a healthy database, last: %s", last.get())
                    .isZero();
        }
    }
}
