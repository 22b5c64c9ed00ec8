package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.LockStore;
import io.distlock.spi.Grant;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The longest names the PostgreSQL store takes (255 characters: ASCII, three-byte characters, surrogate pairs) still
 * get their aimed release notice across processes, under the bounds {@link PostgresNotices} puts on payloads (names
 * over 255 characters ignored, payloads of 8,000 bytes dropped); a longer name is refused before the store (the r10
 * safety review of S48).
 */
@ExtendWith(Databases.class)
class LongNameNoticesTest {

    private static JdbcBackend open(String uri) {
        return (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
    }

    @Test
    void theLongestNamesAreToldOfAReleaseInAnotherProcess() throws Exception {
        // polls 10..20 s apart: a waiter woken sooner was told by a notice
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + Databases.uniqueTable("longname")
                + "&distlock.pollMinMillis=20000&distlock.pollMaxMillis=20000");
        // another spelling of the URL: its store shares no in-JVM signals, as a store of another process
        String elsewhere = uri + "&ApplicationName=distlock-elsewhere";
        String pairs = "\uD83D\uDE00".repeat(127) + "x";
        String[] names = {"a".repeat(255), "\u4E2D".repeat(255), pairs};
        try (JdbcBackend waiterStore = open(uri); JdbcBackend holderStore = open(elsewhere)) {
            assertThat(waiterStore.signals()).isNotSameAs(holderStore.signals());
            for (String name : names) {
                assertThat(name).hasSize(255);
                Grant held = holderStore.acquire(name, Duration.ofSeconds(60), Wait.none());
                assertThat(held).isNotNull();
                CompletableFuture<Grant> waiter = CompletableFuture.supplyAsync(() -> {
                    try {
                        return waiterStore.acquire(name, Duration.ofSeconds(60), Wait.upTo(Duration.ofSeconds(60)));
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
                PostgresNotices holderNotices = (PostgresNotices) remoteOf(holderStore);
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> holderNotices.announcers(name) == 1);
                long released = System.nanoTime();
                assertThat(holderStore.release(held)).isTrue();
                Grant won = waiter.get(60, TimeUnit.SECONDS);
                long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released);
                assertThat(won).isNotNull();
                assertThat(tookMillis).as("ms from the release to the waiter of a name of %d UTF-8 bytes (a poll is"
                        + " 10..20 s)", name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                        .isLessThan(5000);
                assertThat(waiterStore.release(won)).isTrue();
            }
        }
        try (LockStore store = BackendStores.open(uri)) {
            assertThatThrownBy(() -> store.lock("a".repeat(256)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 255");
        }
    }

    private static RemoteWakeups remoteOf(JdbcBackend backend) throws ReflectiveOperationException {
        java.lang.reflect.Field f = JdbcBackend.class.getDeclaredField("remote");
        f.setAccessible(true);
        return (RemoteWakeups) f.get(backend);
    }
}
