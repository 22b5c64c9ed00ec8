package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A client whose clock is far off cannot steal a live lock, because expiry is decided by the database's clock
 * alone. The skewed clock is injected where a SQL client's clock can reach the database: the session. The skewed
 * client's URL sets its MariaDB session {@code timestamp} one day ahead (which moves that session's {@code NOW()})
 * and its time zone ten hours back. The test first shows the skew is real (a naive "compare with my NOW()" client
 * would see the live lock as expired), then that the distlock client on the same URL cannot take it.
 */
@ExtendWith(Databases.class)
class ClockSkewTest {

    private static final long DAY_SECONDS = 86_400;

    @Test
    void aClientWithASkewedClockCannotStealALiveLock() throws Exception {
        String table = Databases.uniqueTable("skew");
        String honestUri = Databases.withOptions(Databases.mysql(), "distlock.table=" + table);
        long skewedEpoch = System.currentTimeMillis() / 1000 + DAY_SECONDS;
        String skewedDriverUrl = Databases.mysql() + "&sessionVariables=time_zone='-10:00',timestamp=" + skewedEpoch;
        String skewedUri = Databases.withOptions(skewedDriverUrl, "distlock.table=" + table);

        try (LockStore honest = LockStore.open(honestUri); LockStore skewed = LockStore.open(skewedUri);
                Connection naive = DriverManager.getConnection(skewedDriverUrl)) {
            Lease live = honest.lock("skew:stock", LockOptions.defaults().withLeaseTime(Duration.ofSeconds(20)))
                    .tryAcquire().orElseThrow();

            // the injected skew is real: in the skewed session the live lock looks long expired
            try (PreparedStatement ps = naive.prepareStatement(
                    "SELECT expires_at <= NOW(3), TIMESTAMPDIFF(HOUR, UTC_TIMESTAMP(), NOW(3)) FROM " + table
                            + " WHERE name = ?")) {
                ps.setString(1, "skew:stock");
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getBoolean(1)).as("a client-clock design would call this lock expired").isTrue();
                }
            }

            // the distlock client on the skewed URL cannot take it, neither at once nor by waiting a while
            assertThat(skewed.lock("skew:stock").tryAcquire()).isEmpty();
            assertThat(skewed.lock("skew:stock").tryAcquire(Duration.ofSeconds(1))).isEmpty();
            assertThat(live.isValid()).isTrue();
            assertThat(live.extend(Duration.ofSeconds(20))).isTrue();

            // and once the holder releases, the skewed client gets the lock with a larger fencing token
            live.release();
            Lease next = skewed.lock("skew:stock").tryAcquire().orElseThrow();
            assertThat(next.fencingToken()).isGreaterThan(live.fencingToken());
            next.release();
        }
    }

    @Test
    void aShortLeaseStillExpiresByTheDatabaseClockForASkewedClient() throws Exception {
        String table = Databases.uniqueTable("skew");
        long skewedEpoch = System.currentTimeMillis() / 1000 - DAY_SECONDS; // this one runs a day behind
        String skewedUri = Databases.withOptions(Databases.mysql()
                + "&sessionVariables=timestamp=" + skewedEpoch, "distlock.table=" + table);
        String honestUri = Databases.withOptions(Databases.mysql(), "distlock.table=" + table);
        try (LockStore skewed = LockStore.open(skewedUri); LockStore honest = LockStore.open(honestUri)) {
            LockOptions oneSecond = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(1)).withAutoRenew(false);
            long start = System.nanoTime();
            Lease first = skewed.lock("skew:short", oneSecond).tryAcquire().orElseThrow();
            // a day-behind clock would write an expiry a day in the past (free at once) or, compared the other way,
            // keep it for a day; with the database clock the honest client gets it after about one second
            Lease second = honest.lock("skew:short").tryAcquire(Duration.ofSeconds(10)).orElseThrow();
            long waitedMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(waitedMillis).as("not before the lease ran out").isGreaterThanOrEqualTo(900);
            assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
            second.release();
        }
    }
}
