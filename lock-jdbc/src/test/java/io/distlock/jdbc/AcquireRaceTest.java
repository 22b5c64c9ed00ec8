package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Several independent clients (each its own pool, as separate processes would be) fire single acquire attempts at
 * the same instant; the database's one-statement upsert must let exactly one through, whether the row is new
 * (racing inserts) or an expired holder's row (racing takeovers).
 */
@ExtendWith(Databases.class)
class AcquireRaceTest {

    private static final int CLIENTS = 4;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.Stores#all")
    void racingInsertsOfANewNameHaveExactlyOneWinner(String label, String uri) throws Exception {
        List<LockStore> clients = open(uri);
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try {
            for (int round = 0; round < 20; round++) {
                String name = "race:new:" + round;
                List<Lease> winners = race(clients, pool, name, LockOptions.defaults());
                assertThat(winners).as("winners of round %d", round).hasSize(1);
                // the database runs on this machine: its clock is this one's, give or take an hour of slack
                long nowMicros = System.currentTimeMillis() * 1000;
                long hourMicros = 3_600_000_000L;
                assertThat(winners.get(0).fencingToken()).as("a new row starts at the database clock in µs")
                        .isBetween(nowMicros - hourMicros, nowMicros + hourMicros);
                winners.get(0).release();
            }
        } finally {
            pool.shutdownNow();
            clients.forEach(LockStore::close);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.Stores#all")
    void anExpiredRowIsTakenOverByExactlyOneRacer(String label, String uri) throws Exception {
        List<LockStore> clients = open(uri);
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        LockOptions shortLease = LockOptions.defaults().withLeaseTime(Duration.ofMillis(300)).withAutoRenew(false);
        try (LockStore holder = LockStore.open(uri)) {
            for (int round = 0; round < 5; round++) {
                String name = "race:expired:" + round;
                Lease stale = holder.lock(name, shortLease).tryAcquire().orElseThrow();
                // wait until the DATABASE considers the lease over (its admin view shows only unexpired rows)
                Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                        .until(() -> holder.admin().list(name, 10).isEmpty());
                List<Lease> winners = race(clients, pool, name, LockOptions.defaults());
                assertThat(winners).as("winners of round %d", round).hasSize(1);
                // the new fence is GREATEST(fence + 1, database clock in µs), and the database clock has passed the
                // stale lease's end, 300 ms after its grant (less 1 ms: MySQL stores expires_at to the millisecond)
                assertThat(winners.get(0).fencingToken()).as("the takeover's fence follows the database clock")
                        .isGreaterThanOrEqualTo(stale.fencingToken() + 299_000);
                winners.get(0).release();
            }
        } finally {
            pool.shutdownNow();
            clients.forEach(LockStore::close);
        }
    }

    private static List<LockStore> open(String uri) {
        List<LockStore> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            clients.add(LockStore.open(uri));
        }
        return clients;
    }

    /** Every client makes one attempt on {@code name}, all released by one latch; returns the leases won. */
    private static List<Lease> race(List<LockStore> clients, ExecutorService pool, String name, LockOptions options)
            throws Exception {
        CountDownLatch ready = new CountDownLatch(clients.size());
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Optional<Lease>>> attempts = new ArrayList<>();
        for (LockStore client : clients) {
            attempts.add(pool.submit(() -> {
                var lock = client.lock(name, options);
                ready.countDown();
                go.await();
                return lock.tryAcquire();
            }));
        }
        ready.await();
        go.countDown();
        List<Lease> won = new ArrayList<>();
        for (Future<Optional<Lease>> attempt : attempts) {
            attempt.get().ifPresent(won::add);
        }
        return won;
    }

}
