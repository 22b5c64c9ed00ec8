package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A PostgreSQL store's release-notice listener holds a connection of its own outside the pool: closing the store
 * closes it, also when the store is closed right after it was opened.
 */
class NoticeListenerCloseTest {

    @Test
    void closedStoresLeaveNoListeningConnection() throws Exception {
        String table = Databases.uniqueTable("review_listen");
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + table);
        String channel = PostgresNotices.channel(table);
        try (LockStore open = LockStore.open(uri)) {
            Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(listeners(channel)).as("listening connections of one open store").isEqualTo(1));
        }
        for (int i = 0; i < 10; i++) {
            try (LockStore store = LockStore.open(uri)) {
                if (i % 2 == 0) {
                    store.lock("review-listen").tryAcquire().orElseThrow().release();
                }
            }
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(listeners(channel)).as("connections still listening on " + channel).isZero());
    }

    private static int listeners(String channel) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/test", "postgres", "");
                PreparedStatement ps = c.prepareStatement(
                        "SELECT count(*) FROM pg_stat_activity WHERE query = ?")) {
            ps.setString(1, "LISTEN \"" + channel + "\"");
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
