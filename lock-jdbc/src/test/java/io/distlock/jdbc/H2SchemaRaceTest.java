package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.Grant;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * What {@link SchemaChanges} leaves to H2 2.3.232 (DEFECTS S67): a lock table in use (statements on it from other
 * sessions) while the first semaphore of the database creates the permit table. Green in 800 rounds (r12 review).
 */
class H2SchemaRaceTest {

    /** Rounds per test; more with -Dh2race.rounds=N when hunting. */
    private static final int ROUNDS = Integer.getInteger("h2race.rounds", 150);
    private static final Duration BOUND = Duration.ofSeconds(20);

    @Test
    void locksInUseWhileTheFirstSemaphoreCreatesThePermitTable() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                String table = Databases.uniqueTable("dml");
                String uri = "jdbc:h2:mem:" + table + ";DB_CLOSE_DELAY=-1?distlock.table=" + table;
                try (JdbcBackend locks = open(uri); JdbcBackend semaphores = open(uri)) {
                    AtomicBoolean stop = new AtomicBoolean();
                    CountDownLatch running = new CountDownLatch(3);
                    List<Future<Integer>> users = new ArrayList<>();
                    for (int t = 0; t < 3; t++) {
                        String name = "l" + t;
                        users.add(pool.submit(() -> {
                            int n = 0;
                            running.countDown();
                            while (!stop.get()) {
                                Grant g = locks.acquire(name, Duration.ofSeconds(5), Wait.upTo(BOUND));
                                assertThat(g).as("lock %s", name).isNotNull();
                                assertThat(locks.release(g)).isTrue();
                                n++;
                            }
                            return n;
                        }));
                    }
                    running.await(BOUND.toSeconds(), TimeUnit.SECONDS);
                    Grant permit;
                    try {
                        permit = semaphores.acquirePermit("s", 1, Duration.ofSeconds(5), Wait.upTo(BOUND));
                    } finally {
                        stop.set(true);
                    }
                    for (Future<Integer> u : users) {
                        u.get(BOUND.toSeconds(), TimeUnit.SECONDS);
                    }
                    assertThat(permit).as("the first permit, round %d", round).isNotNull();
                }
                shutdown("jdbc:h2:mem:" + table);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Drops an in-memory database kept by DB_CLOSE_DELAY=-1. */
    private static void shutdown(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            st.execute("SHUTDOWN");
        }
    }

    private static JdbcBackend open(String uri) {
        return (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
    }
}
