package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code distlock.turns}: by default a MariaDB store whose waiter finds a lock held queues for its turn on a worker
 * of its own; with {@code distlock.turns=false} it only polls, and no turn worker (nor its connection outside the
 * pool) is ever made. A value that is not a boolean is refused by name.
 */
class TurnsOptionTest {

    private static final String WORKER = "distlock-mariadb-turn";

    @Test
    void aStoreWithTurnsOffWaitsByPollingAloneAndMakesNoTurnWorker() throws Exception {
        String table = "turns_off_" + UUID.randomUUID().toString().substring(0, 8);
        try (LockStore holder = LockStore.open(Databases.withOptions(Databases.mysql(), "distlock.table=" + table));
                LockStore waiter = LockStore.open(Databases.withOptions(Databases.mariadb(), "distlock.table=" + table
                        + "&distlock.turns=false&distlock.pollMaxMillis=50"))) {
            Lease held = holder.lock("x").acquire();
            Set<Thread> before = workers(); // of stores of earlier tests in this JVM, if any linger
            CompletableFuture<Optional<Lease>> waited = CompletableFuture.supplyAsync(() -> tryAcquire(waiter));
            boolean seen = false;
            while (!waited.isDone()) {
                seen |= !before.containsAll(workers());
                Thread.onSpinWait();
            }
            assertThat(waited.get()).as("still held").isEmpty();
            assertThat(seen).as("a turn worker while a store with turns off waited").isFalse();
            held.release();
            Optional<Lease> next = waiter.lock("x").tryAcquire(Duration.ofSeconds(5));
            assertThat(next).as("taken by polling once free").isPresent();
            next.get().release();
        }
    }

    @Test
    void byDefaultAWaitingStoreQueuesForItsTurn() throws Exception {
        String table = "turns_on_" + UUID.randomUUID().toString().substring(0, 8);
        try (LockStore holder = LockStore.open(Databases.withOptions(Databases.mysql(), "distlock.table=" + table));
                LockStore waiter = LockStore.open(Databases.withOptions(Databases.mariadb(), "distlock.table="
                        + table))) {
            Lease held = holder.lock("x").acquire();
            Set<Thread> before = workers();
            CompletableFuture<Optional<Lease>> waited = CompletableFuture.supplyAsync(() -> tryAcquire(waiter));
            await("a turn worker while the waiter waits").atMost(Duration.ofSeconds(2))
                    .until(() -> !before.containsAll(workers()));
            assertThat(waited.get()).isEmpty();
            held.release();
        }
    }

    @Test
    void aTurnsValueThatIsNotABooleanIsRefusedByName() {
        // not through Databases.withOptions: it keeps the URI to drop its table after the class, and this one never opens
        assertThatThrownBy(() -> LockStore.open(Databases.mariadb() + "&distlock.turns=maybe"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("distlock.turns");
    }

    private static Optional<Lease> tryAcquire(LockStore store) {
        try {
            return store.lock("x").tryAcquire(Duration.ofMillis(1500));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Set<Thread> workers() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(WORKER) && t.isAlive())
                .collect(Collectors.toSet());
    }
}
