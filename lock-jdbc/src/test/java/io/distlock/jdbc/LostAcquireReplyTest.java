package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.function.ThrowingSupplier;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The database commits an acquisition and its answer is lost (the client's socket times out). The caller gets
 * {@link StoreUnavailableException} and never learns the token, so the store must free that row itself: another
 * client gets the lock long before the orphan's lease (two minutes here) runs out.
 *
 * <p>That the database did commit is seen while the caller still waits for the lost answer: once the caller gives
 * up, the store's cleanup may free the row at once (its statement reaches the database even while answers are
 * swallowed), so a look after the failure could find it freed already.
 */
@ExtendWith(Databases.class)
class LostAcquireReplyTest {

    private static final Duration LEASE = Duration.ofSeconds(120);
    /**
     * Far below the lease: the socket timeout (1.5 s), a few cleanup retries, up to one connect timeout (10 s) for a
     * pooled connection opened while answers were being swallowed, and slack for a loaded machine. Measured: 0.2 s
     * (PostgreSQL), 1.1 s (Connector/J), 8.7 s (MariaDB client, which waited out such a connection).
     */
    private static final Duration FREED_WITHIN = Duration.ofSeconds(45);
    /** How long the caller waits for the lost answer: the window in which the committed row is looked at. */
    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(3);

    static Stream<Arguments> databases() {
        return Stream.of(Arguments.of("mariadb", Databases.mysql()),
                Arguments.of("mariadb-client", Databases.mariadb()),
                Arguments.of("postgresql", Databases.postgres()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void anAcquisitionWhoseAnswerWasLostIsFreedInTheBackground(String label, String database) throws Exception {
        String direct = Databases.withOptions(database, "distlock.table=" + Databases.uniqueTable("lost"));
        try (ReplyDroppingProxy proxy = new ReplyDroppingProxy(database);
                LockStore other = LockStore.open(direct);
                LockStore client = LockStore.open(proxy.route(direct) + "&distlock.socketTimeoutMillis="
                        + SOCKET_TIMEOUT.toMillis())) {
            String name = "lost:reply";
            proxy.dropReplies();
            CompletableFuture<Optional<Lease>> acquire = inBackground(
                    () -> client.lock(name, LockOptions.defaults().withLeaseTime(LEASE)).tryAcquire());
            awaitWhileWaiting(acquire, "the database did commit the acquisition",
                    () -> other.admin().list(name, 10).size() == 1);
            assertThatThrownBy(() -> result(acquire)).isInstanceOf(StoreUnavailableException.class);
            proxy.passReplies();

            long start = System.nanoTime();
            Optional<Lease> next = other.lock(name).tryAcquire(FREED_WITHIN);
            assertThat(next).as("the orphan row is freed, not held for its whole %s lease", LEASE).isPresent();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(FREED_WITHIN);
            next.get().release();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aPermitWhoseAcquireAnswerWasLostIsFreedInTheBackground(String label, String database) throws Exception {
        String direct = Databases.withOptions(database, "distlock.table=" + Databases.uniqueTable("lostp"));
        try (ReplyDroppingProxy proxy = new ReplyDroppingProxy(database);
                LockStore other = LockStore.open(direct);
                LockStore client = LockStore.open(proxy.route(direct) + "&distlock.socketTimeoutMillis="
                        + SOCKET_TIMEOUT.toMillis())) {
            String name = "lost:permit";
            other.semaphore(name, 1).tryAcquire().orElseThrow().release(); // the table and counter exist already
            // the acquire's transaction commits, its answer is lost
            proxy.dropRepliesFrom(java.util.regex.Pattern.compile("COMMIT(?!TED)"));
            CompletableFuture<Optional<Lease>> acquire = inBackground(
                    () -> client.semaphore(name, 1, LockOptions.defaults().withLeaseTime(LEASE)).tryAcquire());
            awaitWhileWaiting(acquire, "the database did commit the acquisition",
                    () -> other.semaphore(name, 1).availablePermits() == 0);
            assertThatThrownBy(() -> result(acquire)).isInstanceOf(StoreUnavailableException.class);
            proxy.passReplies();

            long start = System.nanoTime();
            Optional<Lease> next = other.semaphore(name, 1).tryAcquire(FREED_WITHIN);
            assertThat(next).as("the orphan permit is freed, not held for its whole %s lease", LEASE).isPresent();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(FREED_WITHIN);
            next.get().release();
        }
    }

    private static CompletableFuture<Optional<Lease>> inBackground(ThrowingSupplier<Optional<Lease>> call) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return call.get();
            } catch (Throwable e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
    }

    /** Waits until {@code seen} holds, failing if the caller stopped waiting (and its cleanup could run) first. */
    private static void awaitWhileWaiting(CompletableFuture<?> caller, String what,
            java.util.concurrent.Callable<Boolean> seen) {
        Awaitility.await(what).atMost(SOCKET_TIMEOUT).pollInterval(Duration.ofMillis(20))
                .failFast("the caller stopped waiting for the lost answer before " + what + " was seen",
                        caller::isDone)
                .until(seen);
    }

    /** The caller's outcome: its exception as thrown, unwrapped. */
    private static Optional<Lease> result(CompletableFuture<Optional<Lease>> caller) throws Throwable {
        try {
            return caller.get(SOCKET_TIMEOUT.multipliedBy(4).toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause();
        }
    }
}
