package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.Grant;
import io.distlock.spi.ReleaseSignals;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A semaphore's wake-ups and a lock's never reach each other's waiters, whatever the lock is named: on MariaDB and
 * H2 a lock name may hold NUL, so a lock may be named like the key a semaphore's wake-up once used
 * ({@code "\u0000sem:" + name}). Signal probes (tickets that wait for nothing) show which wake-ups a release sends,
 * with no timing involved: each release must signal its own kind's probe and not the other's.
 */
@ExtendWith(Databases.class)
class SemaphoreSignalsTest {

    private static final String SEMAPHORE = "x";
    /** A lock named like the semaphore's former wake-up key. */
    private static final String LOCK = "\u0000sem:" + SEMAPHORE;
    private static final Duration LEASE = Duration.ofSeconds(30);

    /** The stores whose lock names may hold NUL (PostgreSQL refuses such names). */
    static Stream<Arguments> stores() {
        return Stores.all().filter(a -> !a.get()[0].equals("postgresql"));
    }

    private static JdbcBackend open(String uri) {
        return (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aSemaphoreReleaseWakesNoWaiterOfALockNamedLikeIt(String label, String uri) throws Exception {
        try (JdbcBackend store = open(uri);
             ReleaseSignals.Ticket lockWaiter = store.signals().ticket(LOCK);
             ReleaseSignals.Ticket semaphoreWaiter = store.permitTable().releaseProbe(SEMAPHORE)) {
            Grant permit = store.acquirePermit(SEMAPHORE, 1, LEASE, Wait.none());
            assertThat(permit).isNotNull();
            assertThat(store.releasePermit(permit)).isTrue();
            assertThat(semaphoreWaiter.await(0)).as("the semaphore's own waiter woken on %s", label).isTrue();
            assertThat(lockWaiter.await(0)).as("a waiter of lock %s woken by semaphore %s's release on %s",
                    io.distlock.Arguments.quoted(LOCK), io.distlock.Arguments.quoted(SEMAPHORE), label).isFalse();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aLockReleaseWakesNoWaiterOfASemaphoreItIsNamedLike(String label, String uri) throws Exception {
        try (JdbcBackend store = open(uri);
             ReleaseSignals.Ticket lockWaiter = store.signals().ticket(LOCK);
             ReleaseSignals.Ticket semaphoreWaiter = store.permitTable().releaseProbe(SEMAPHORE)) {
            Grant lock = store.acquire(LOCK, LEASE, Wait.none());
            assertThat(lock).isNotNull();
            assertThat(store.release(lock)).isTrue();
            assertThat(lockWaiter.await(0)).as("the lock's own waiter woken on %s", label).isTrue();
            assertThat(semaphoreWaiter.await(0)).as("a waiter of semaphore %s woken by lock %s's release on %s",
                    io.distlock.Arguments.quoted(SEMAPHORE), io.distlock.Arguments.quoted(LOCK), label).isFalse();
        }
    }
}
