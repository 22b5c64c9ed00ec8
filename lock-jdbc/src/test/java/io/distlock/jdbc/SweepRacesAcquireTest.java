package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.Grant;
import io.distlock.spi.Renewal;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Adversarial: the sweep of unused names ({@link RowSweeper}) racing two clients' acquires of rows it may delete
 * (free, fence a minute below the clock). Whatever the interleaving, each name has at most one holder, a grant's
 * token is above the row's old fence, and a grant's lease is not lost to the sweep (its renewal succeeds).
 */
@ExtendWith(Databases.class)
class SweepRacesAcquireTest {

    private static final int ROUNDS = 15;
    private static final int NAMES = 20;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.Stores#all")
    void aSweepRacingTwoAcquirersNeverMakesTwoHoldersOrLosesALease(String label, String uri) throws Exception {
        JdbcSettings settings = JdbcSettings.parse(StoreUri.parse(uri));
        SqlDialect dialect = JdbcLockStoreProvider.dialectFor(settings);
        try (JdbcBackend a = (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
                JdbcBackend b = (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
                Connection c = DriverManager.getConnection(settings.driverUrl())) {
            a.release(a.acquire("probe", Duration.ofSeconds(1), Wait.none())); // the table exists
            String insert = "INSERT INTO " + settings.table() + " (name, owner_token, fence, expires_at) VALUES (?,"
                    + " NULL, " + dialect.fenceSeed() + " - 60000000, NULL)";
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> sweepFailure = new AtomicReference<>();
            Thread sweeper = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        a.sweepNow();
                    }
                } catch (Throwable t) {
                    sweepFailure.set(t);
                }
            }, "test-sweeper");
            Map<String, List<Grant>> grants = new ConcurrentHashMap<>();
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            sweeper.start();
            try {
                for (int round = 0; round < ROUNDS; round++) {
                    List<String> names = new ArrayList<>();
                    for (int i = 0; i < NAMES; i++) {
                        String name = "r" + round + "-" + i;
                        names.add(name);
                        try (PreparedStatement ps = c.prepareStatement(insert)) {
                            ps.setString(1, name);
                            ps.executeUpdate();
                        }
                    }
                    CyclicBarrier start = new CyclicBarrier(2);
                    List<Thread> clients = new ArrayList<>();
                    for (JdbcBackend client : List.of(a, b)) {
                        Thread t = new Thread(() -> {
                            try {
                                start.await();
                                for (String name : names) {
                                    Grant g = client.acquire(name, Duration.ofSeconds(60), Wait.none());
                                    if (g != null) {
                                        grants.computeIfAbsent(name, n -> new CopyOnWriteArrayList<>()).add(g);
                                    }
                                }
                            } catch (Throwable e) {
                                failures.add(e);
                            }
                        });
                        t.start();
                        clients.add(t);
                    }
                    for (Thread t : clients) {
                        t.join();
                    }
                }
            } finally {
                stop.set(true);
                sweeper.join();
            }
            assertThat(failures).as("acquire failures on %s", label).isEmpty();
            assertThat(sweepFailure.get()).as("sweep failure on %s", label).isNull();
            List<String> twoHolders = new ArrayList<>();
            List<Grant> all = new ArrayList<>();
            grants.forEach((name, list) -> {
                all.addAll(list);
                if (list.size() > 1) {
                    twoHolders.add(name + " " + list.stream().map(Grant::fencingToken).toList());
                }
            });
            Collections.sort(twoHolders);
            assertThat(twoHolders).as("names granted to two holders on %s", label).isEmpty();
            List<String> lost = new ArrayList<>();
            for (Grant g : all) {
                if (!a.renew(List.of(new Renewal(g, Duration.ofSeconds(60)))).isEmpty()) {
                    lost.add(g.name());
                }
            }
            Collections.sort(lost);
            assertThat(lost).as("leases lost right after their grant on %s (of %d granted)", label, all.size())
                    .isEmpty();
            assertThat(all).as("grants on %s", label).hasSize(ROUNDS * NAMES);
        }
    }
}
