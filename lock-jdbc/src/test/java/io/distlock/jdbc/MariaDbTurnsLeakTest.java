package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * 200 stores, opened ten at a time in a database of their own on the machine's MariaDB, contend for three names and
 * close: afterwards no connection of theirs is left on the server, no turn worker thread in this JVM, no turn lock
 * held; while ten contend, the server sees at most a pool and {@link MariaDbTurns#MAX_TURNS} turn connections each.
 */
class MariaDbTurnsLeakTest {

    private static final int ROUNDS = 20;
    private static final int STORES = 10;

    @Test
    void twoHundredContendingStoresLeaveNoConnectionThreadOrTurnLockBehind() throws Exception {
        String db = ("dl_turnleak_" + UUID.randomUUID().toString().substring(0, 8)).toLowerCase(Locale.ROOT);
        String server = Databases.mariadb().replaceFirst("/test\\?.*$", "/");
        try (Connection admin = DriverManager.getConnection(server + "test?user=root")) {
            try (Statement s = admin.createStatement()) {
                s.execute("CREATE DATABASE " + db);
            }
            try {
                run(admin, server + db + "?user=root&distlock.connectTimeoutMillis=10000", db);
            } finally {
                try (Statement s = admin.createStatement()) {
                    s.execute("DROP DATABASE " + db);
                }
            }
        }
    }

    private static void run(Connection admin, String uri, String db) throws Exception {
        int peak = 0;
        ExecutorService threads = Executors.newFixedThreadPool(STORES);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                List<LockStore> stores = new ArrayList<>();
                try {
                    List<Future<?>> loops = new ArrayList<>();
                    for (int i = 0; i < STORES; i++) {
                        LockStore store = LockStore.open(uri + "&connectionAttributes=leak:" + round + "." + i);
                        stores.add(store);
                        loops.add(threads.submit(() -> {
                            for (int k = 0; k < 6; k++) {
                                Lease lease = store.lock("leak:" + (k % 3)).acquire();
                                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(3));
                                lease.release();
                            }
                            return null;
                        }));
                    }
                    for (Future<?> loop : loops) {
                        while (!loop.isDone()) {
                            peak = Math.max(peak, connections(admin, db));
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                        }
                        loop.get(60, TimeUnit.SECONDS);
                    }
                } finally {
                    for (LockStore store : stores) {
                        store.close();
                    }
                }
            }
        } finally {
            threads.shutdownNow();
        }
        System.out.println("MariaDbTurnsLeakTest: peak " + peak + " server connections of " + STORES
                + " contending stores");
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
            assertThat(connections(admin, db)).as("server connections left in %s", db).isZero();
            assertThat(Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals("distlock-mariadb-turn")).count()).as("turn threads").isZero();
        });
        for (int k = 0; k < 3; k++) {
            assertThat(turnHeld(admin, db, "leak:" + k)).as("turn lock of leak:%s held", k).isFalse();
        }
    }

    /** Connections on the server whose current database is {@code db}. */
    private static int connections(Connection admin, String db) throws Exception {
        try (PreparedStatement ps = admin.prepareStatement(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE DB = ?")) {
            ps.setString(1, db);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** Whether the turn lock of {@code name} in the default table of database {@code db} is held. */
    private static boolean turnHeld(Connection admin, String db, String name) throws Exception {
        String key = new MariaDbTurns(null, "distlock_locks", null, 1, 1, 1000, "leak").turnKey(name);
        try (PreparedStatement ps = admin.prepareStatement("SELECT IS_USED_LOCK(CONCAT('distlock:', LEFT(SHA2("
                + "CONCAT(CAST(? AS BINARY), ?), 256), 40)))")) {
            ps.setString(1, db);
            ps.setString(2, key);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                rs.getLong(1);
                return !rs.wasNull();
            }
        }
    }

    /**
     * One store whose 40 threads start waiting at once for 40 names held elsewhere: at most
     * {@link MariaDbTurns#MAX_TURNS} of them queue (each on a connection), the others poll; the server sees at most
     * the pool (2 here) and 8 turn connections of it.
     */
    @Test
    void manyNamesWaitedForAtOnceOpenAtMostEightTurnConnections() throws Exception {
        String db = ("dl_turnleak_" + UUID.randomUUID().toString().substring(0, 8)).toLowerCase(Locale.ROOT);
        String server = Databases.mariadb().replaceFirst("/test\\?.*$", "/");
        int names = 40;
        try (Connection admin = DriverManager.getConnection(server + "test?user=root")) {
            try (Statement s = admin.createStatement()) {
                s.execute("CREATE DATABASE " + db);
            }
            ExecutorService threads = Executors.newFixedThreadPool(names);
            String uri = server + db + "?user=root&distlock.connectTimeoutMillis=10000";
            try (LockStore holder = LockStore.open(uri + "&connectionAttributes=holder&distlock.poolSize=2");
                    LockStore store = LockStore.open(uri + "&distlock.poolSize=2")) {
                List<Lease> held = new ArrayList<>();
                for (int i = 0; i < names; i++) {
                    held.add(holder.lock("many:" + i).acquire());
                }
                int base = connections(admin, db);
                java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
                List<Future<?>> waits = new ArrayList<>();
                for (int i = 0; i < names; i++) {
                    String name = "many:" + i;
                    waits.add(threads.submit(() -> {
                        start.await();
                        return store.lock(name).tryAcquire(Duration.ofSeconds(4));
                    }));
                }
                start.countDown();
                int peak = 0;
                for (Future<?> w : waits) {
                    while (!w.isDone()) {
                        peak = Math.max(peak, connections(admin, db) - base);
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                    }
                }
                System.out.println("MariaDbTurnsLeakTest: peak " + peak + " more server connections with " + names
                        + " names waited for at once (pool 2)");
                for (Lease l : held) {
                    l.release();
                }
                assertThat(peak).as("connections of the waiting store beyond those at the start").isLessThanOrEqualTo(
                        2 + MariaDbTurns.MAX_TURNS);
            } finally {
                threads.shutdownNow();
                try (Statement s = admin.createStatement()) {
                    s.execute("DROP DATABASE " + db);
                }
            }
        }
    }
}
