package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.Grant;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Attacks (review r9) on the sweep leaving the permit table alone until this store used a semaphore (S39): a
 * semaphore used first by another store (another process) whose client then dies, while this store only locks; and
 * the permit table created by several stores at the same moment. A dead client's permit is taken again by the next
 * acquire once its lease is over, whoever sweeps; its rows stay while only stores that never used a semaphore run
 * (their sweep sends the permit table nothing, by design) and go at the first sweep of a store that used one; every
 * store that created the table, or found it created by another at that moment, sweeps it from then on.
 */
@ExtendWith(Databases.class)
class PermitSweepAttackTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.Stores#all")
    void aDeadClientsPermitIsTakenAgainAndItsRowsGoWithTheFirstSemaphoreUsersSweep(String label, String uri)
            throws Exception {
        JdbcSettings settings = JdbcSettings.parse(StoreUri.parse(uri));
        SqlDialect dialect = JdbcLockStoreProvider.dialectFor(settings);
        String permits = settings.table() + JdbcPermits.TABLE_SUFFIX;
        try (JdbcBackend lockOnly = open(uri); Connection c = DriverManager.getConnection(settings.driverUrl())) {
            Grant deadPermit;
            Grant deadLeft;
            try (JdbcBackend dead = open(uri)) {
                deadPermit = dead.acquirePermit("s", 1, Duration.ofMillis(300), Wait.none());
                deadLeft = dead.acquirePermit("left", 1, Duration.ofMillis(300), Wait.none());
                assertThat(deadPermit).isNotNull();
                assertThat(deadLeft).isNotNull();
            } // its client dies: nothing renews, releases or sweeps its permits from here on
            assertThat(held(c, permits, "s")).as("the dead client's permit, still recorded").isEqualTo(1);
            lockOnly.release(lockOnly.acquire("x", Duration.ofMillis(300), Wait.none()));

            // the rows are the sweep's to take once the database clock has passed their counters by the grace
            long sweepableAfter = Math.max(deadPermit.fencingToken(), deadLeft.fencingToken())
                    + RowSweeper.GRACE.toNanos() / 1000 + 1_000_000;
            Awaitility.await().atMost(BOUND).pollInterval(Duration.ofMillis(200))
                    .until(() -> clockMicros(c, dialect) > sweepableAfter);
            lockOnly.sweepNow();
            assertThat(rows(c, permits, "left")).as("rows of the dead client's semaphore after the sweep of a store"
                    + " that only locks, on %s", label).isEqualTo(2);
            assertThat(rows(c, permits, "s")).as("rows of the dead client's other semaphore").isEqualTo(2);

            try (JdbcBackend next = open(uri)) {
                Grant taken = next.acquirePermit("s", 1, Duration.ofSeconds(5), Wait.none());
                assertThat(taken).as("the dead client's permit after its lease, on %s", label).isNotNull();
                assertThat(taken.fencingToken()).as("token after the dead client's")
                        .isGreaterThan(deadPermit.fencingToken());
                next.releasePermit(taken);
                next.sweepNow();
                assertThat(rows(c, permits, "left")).as("rows of the dead client's semaphore after the sweep of a"
                        + " store that used one, on %s", label).isZero();
            }
        }
    }

    /**
     * Six stores use a semaphore for the first time at once on a missing permit table, in 20 rounds on fresh tables
     * (the race is narrow): every acquire is granted, with its own token, and every store sweeps the table from then
     * on. On H2 a store whose probe of the table met another store's create in progress was refused with H2's
     * "Table ... not found (candidates are: ...)" (error 42103), which was not read as a missing table (DEFECTS S40).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.Stores#all")
    void storesCreatingThePermitTableAtOnceAllGetPermitsAndAllSweepIt(String label, String uri) throws Exception {
        for (int round = 0; round < 20; round++) {
            createAtOnce(label + ", round " + round, freshTable(label, uri));
        }
    }

    /**
     * Stores of one JVM opening on a fresh H2 database at once and using a semaphore at once, in many rounds: each
     * round's stores create the lock table, then the permit table, at the same moment. H2 2.3.232 failed when two
     * connections created one table at once: a {@code ConcurrentModificationException} from its own code, or the
     * in-memory database closed under a permit's {@code SELECT ... FOR UPDATE} ("Map ... is closed") (DEFECTS S67).
     */
    @Test
    void h2StoresOfOneJvmCreatingTheSameTablesAtOnceAllOpenAndAllGetPermits() throws Exception {
        for (int round = 0; round < 300; round++) {
            String table = Databases.uniqueTable("pc");
            createAtOnce("h2, round " + round, "jdbc:h2:mem:" + table + ";DB_CLOSE_DELAY=-1?distlock.table=" + table);
        }
    }

    /** {@code uri} of {@link Stores#all} with a table (and on H2 a database) of its own. */
    private static String freshTable(String label, String uri) {
        String table = Databases.uniqueTable("pc");
        if (label.equals("h2")) {
            return "jdbc:h2:mem:" + table + ";DB_CLOSE_DELAY=-1?distlock.table=" + table;
        }
        return Databases.withOptions(uri.substring(0, uri.indexOf('?')), "distlock.table=" + table);
    }

    private static void createAtOnce(String label, String uri) throws Exception {
        int n = 6;
        List<JdbcBackend> backends = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch opening = new CountDownLatch(1); // the stores open at once too: each may create the lock table
            List<Future<?>> opened = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                opened.add(pool.submit(() -> {
                    opening.await();
                    return backends.add(open(uri));
                }));
            }
            opening.countDown();
            for (Future<?> o : opened) {
                o.get(BOUND.toSeconds() * 2, TimeUnit.SECONDS);
            }
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Grant>> grants = new ArrayList<>();
            for (JdbcBackend backend : backends) {
                grants.add(pool.submit(() -> {
                    start.await();
                    return backend.acquirePermit("first", n, Duration.ofSeconds(5), Wait.upTo(BOUND));
                }));
            }
            start.countDown();
            List<Grant> got = new ArrayList<>();
            for (Future<Grant> g : grants) {
                got.add(g.get(BOUND.toSeconds() * 2, TimeUnit.SECONDS));
            }
            assertThat(got).as("permits of the stores that created the table at once, on %s", label)
                    .doesNotContainNull();
            assertThat(got.stream().map(Grant::fencingToken).distinct().count()).as("distinct tokens").isEqualTo(n);
            for (int i = 0; i < n; i++) {
                assertThat(sweepsPermits(backends.get(i))).as("store %d sweeps the permit table, on %s", i, label)
                        .isTrue();
                backends.get(i).releasePermit(got.get(i));
            }
        } finally {
            pool.shutdownNow();
            backends.forEach(JdbcBackend::close);
        }
    }

    private static JdbcBackend open(String uri) {
        return (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
    }

    /** Whether {@code backend}'s sweep covers the permit table (read from its sweeper: nothing else tells). */
    private static boolean sweepsPermits(JdbcBackend backend) throws ReflectiveOperationException {
        java.lang.reflect.Field sweeper = JdbcBackend.class.getDeclaredField("sweeper");
        sweeper.setAccessible(true);
        java.lang.reflect.Field inUse = RowSweeper.class.getDeclaredField("permitTableInUse");
        inUse.setAccessible(true);
        return inUse.getBoolean(sweeper.get(backend));
    }

    private static long clockMicros(Connection c, SqlDialect dialect) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + dialect.fenceSeed());
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static int held(Connection c, String table, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT COUNT(*) FROM " + table + " WHERE name = ? AND slot > 0 AND owner_token IS NOT NULL")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static int rows(Connection c, String table, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
