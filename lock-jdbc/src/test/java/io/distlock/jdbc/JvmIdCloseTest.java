package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.Grant;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On PostgreSQL, two stores of this JVM on one URL and table share one id for release notices; closing one of them
 * while the other's waiter waits keeps the id (and its channel) for the other: a release in another process still
 * wakes that waiter by notice, not at its poll (the r10 safety review of S49).
 */
@ExtendWith(Databases.class)
class JvmIdCloseTest {

    private static JdbcBackend open(String uri) {
        return (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
    }

    private static PostgresNotices notices(JdbcBackend backend) throws ReflectiveOperationException {
        java.lang.reflect.Field f = JdbcBackend.class.getDeclaredField("remote");
        f.setAccessible(true);
        return (PostgresNotices) f.get(backend);
    }

    @Test
    void closingOneOfTwoStoresSharingAnIdLeavesTheOtherToldOfReleases() throws Exception {
        // polls 10..20 s apart: a waiter woken sooner was told by a notice
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + Databases.uniqueTable("jvmid")
                + "&distlock.pollMinMillis=20000&distlock.pollMaxMillis=20000");
        String elsewhere = uri + "&ApplicationName=distlock-elsewhere";
        int idsBefore = PostgresNotices.jvmIds();
        try (JdbcBackend waiterStore = open(uri); JdbcBackend holderStore = open(elsewhere)) {
            JdbcBackend closing = open(uri);
            assertThat(notices(closing).id()).isEqualTo(notices(waiterStore).id());
            Grant held = holderStore.acquire("shared-id", Duration.ofSeconds(60), Wait.none());
            CompletableFuture<Grant> waiter = CompletableFuture.supplyAsync(() -> {
                try {
                    return waiterStore.acquire("shared-id", Duration.ofSeconds(60), Wait.upTo(Duration.ofSeconds(60)));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            PostgresNotices holderNotices = notices(holderStore);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> holderNotices.announcers("shared-id") == 1);
            closing.close(); // not the last store of the id: no "gone" notice, the id stays
            assertThat(PostgresNotices.jvmIds()).isEqualTo(idsBefore + 2);
            long released = System.nanoTime();
            assertThat(holderStore.release(held)).isTrue();
            Grant won = waiter.get(60, TimeUnit.SECONDS);
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released);
            assertThat(won).isNotNull();
            assertThat(tookMillis).as("ms from the release elsewhere to the waiter of the store left open (a poll is"
                    + " 10..20 s)").isLessThan(5000);
            assertThat(holderNotices.announcers("shared-id")).as("the id left open is still announced").isEqualTo(1);
            assertThat(waiterStore.release(won)).isTrue();
        }
        assertThat(PostgresNotices.jvmIds()).isEqualTo(idsBefore);
    }
}
