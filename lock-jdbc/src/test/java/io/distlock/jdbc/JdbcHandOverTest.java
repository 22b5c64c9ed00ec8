package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.LockInfo;
import io.distlock.LockStore;
import io.distlock.spi.Grant;
import io.distlock.spi.HandOvers;
import io.distlock.spi.LockBackend;
import io.distlock.spi.Wait;
import io.distlock.tck.check.HandOverHolder;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hand-over statement of each dialect on a real database: the new holder gets its token, its lease time and a
 * greater fence in one statement, a token that no longer holds the row is refused without changing it, and a closed
 * store refuses the hand-over as the other stores do.
 */
@ExtendWith(Databases.class)
class JdbcHandOverTest {

    static Stream<Arguments> databases() {
        return Stream.concat(Stores.all(), Stream.of(
                Arguments.of("mariadb-client", Databases.withOptions(Databases.mariadb(),
                        "distlock.table=" + Databases.uniqueTable("mc")))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void theNewHolderGetsItsTokenLeaseAndAGreaterFenceAndTheOldTokenIsRefused(String label, String uri)
            throws Exception {
        try (LockStore store = BackendStores.open(uri)) {
            assertThat(BackendStores.backend(store, LockBackend.class)).isInstanceOf(HandOvers.class);
            HandOvers backend = BackendStores.backend(store, HandOvers.class);
            Grant first = backend.acquire("handed:row", Duration.ofSeconds(2), Wait.none());

            Grant second = backend.handOver(first, Duration.ofSeconds(40), Thread.currentThread());

            assertThat(second).isNotNull();
            assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
            assertThat(second.ownerToken()).isNotEqualTo(first.ownerToken());
            List<LockInfo> held = store.admin().list("handed:", 10);
            assertThat(held).hasSize(1);
            assertThat(held.get(0).fencingToken()).isEqualTo(second.fencingToken());
            assertThat(held.get(0).timeLeft()).isGreaterThan(Duration.ofSeconds(30));

            assertThat(backend.handOver(first, Duration.ofSeconds(5), Thread.currentThread()))

                    .as("the old holder's token").isNull();
            assertThat(store.admin().list("handed:", 10).get(0).fencingToken()).isEqualTo(second.fencingToken());
            assertThat(backend.release(first)).isFalse();
            assertThat(backend.release(second)).isTrue();
            assertThat(backend.handOver(second, Duration.ofSeconds(5), Thread.currentThread()))
                    .as("a released lock").isNull();
            assertThat(store.admin().list("handed:", 10)).isEmpty();

            Grant third = backend.acquire("handed:row", Duration.ofSeconds(5), Wait.none());
            assertThat(third.fencingToken()).isGreaterThan(second.fencingToken());
            assertThat(backend.release(third)).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void theStoredHolderIsTheThreadTheLockWasHandedTo(String label, String uri) throws Exception {
        try (LockStore store = LockStore.open(uri)) {
            HandOverHolder.adminNamesTheReceivingThread(store, "handed:named");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aClosedStoreRefusesAHandOverAndLeavesTheRowAlone(String label, String uri) throws Exception {
        Grant first;
        try (LockStore store = BackendStores.open(uri)) {
            HandOvers backend = BackendStores.backend(store, HandOvers.class);
            first = backend.acquire("handed:closed", Duration.ofSeconds(30), Wait.none());
            store.close();

            assertThatThrownBy(() -> backend.handOver(first, Duration.ofSeconds(30), Thread.currentThread()))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        }
        try (LockStore again = LockStore.open(uri)) {
            List<LockInfo> held = again.admin().list("handed:closed", 10);
            assertThat(held).hasSize(1);
            assertThat(held.get(0).fencingToken()).as("the first holder's row, unchanged")
                    .isEqualTo(first.fencingToken());
            assertThat(again.admin().forceRelease("handed:closed")).isTrue();
        }
    }
}
