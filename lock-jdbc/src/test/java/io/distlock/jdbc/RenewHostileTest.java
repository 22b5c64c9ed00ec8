package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockInfo;
import io.distlock.spi.Grant;
import io.distlock.spi.Renewal;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A renewal never extends a lease that is no longer its grant's, on each database, through the backend SPI: a grant
 * whose row was force-released and taken by another client, one superseded by a hand-over, one whose lease ran out
 * and was taken, a lock's grant passed as a permit and the other way round, and renewals racing the release or
 * hand-over of their grant (the r10 safety review of S52). The other client's row keeps its own token, fence and
 * expiry.
 */
@ExtendWith(Databases.class)
class RenewHostileTest {

    private static final Duration SHORT = Duration.ofSeconds(3);
    private static final Duration LONG = Duration.ofSeconds(120);

    /** The three databases of {@link Stores#all}, and MariaDB through its own client (server-side prepared). */
    static Stream<org.junit.jupiter.params.provider.Arguments> stores() {
        return Stream.concat(Stores.all(), Stream.of(org.junit.jupiter.params.provider.Arguments.of("mariadb-client",
                Databases.withOptions(Databases.mariadb(), "distlock.table=" + Databases.uniqueTable("mc")))));
    }

    private static JdbcBackend open(String uri) {
        return (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
    }

    private static Set<Grant> renew(JdbcBackend backend, Duration lease, Grant... grants) {
        List<Renewal> renewals = new ArrayList<>();
        for (Grant g : grants) {
            renewals.add(new Renewal(g, lease));
        }
        return backend.renew(renewals);
    }

    /** The row of {@code name} as the admin view sees it: held, with this fence, and no more time than given. */
    private static void assertRowIs(JdbcBackend backend, Grant holder, Duration atMostLeft, String label) {
        List<LockInfo> rows = backend.admin().list(holder.name(), 10);
        assertThat(rows).as("rows of %s on %s", holder.name(), label).hasSize(1);
        assertThat(rows.get(0).fencingToken()).as("fence of the row on %s", label).isEqualTo(holder.fencingToken());
        assertThat(rows.get(0).timeLeft()).as("time left of the other client's lease on %s", label)
                .isLessThanOrEqualTo(atMostLeft);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aGrantForceReleasedAndTakenByAnotherClientIsNotRenewed(String label, String uri) throws Exception {
        try (JdbcBackend a = open(uri); JdbcBackend b = open(uri)) {
            Grant stale = a.acquire("forced", LONG, Wait.none());
            assertThat(b.admin().forceRelease("forced")).isTrue();
            Grant other = b.acquire("forced", SHORT, Wait.none());
            assertThat(other).as("the other client's grant on %s", label).isNotNull();
            assertThat(renew(a, LONG, stale)).as("stale alone on %s", label).containsExactly(stale);
            assertThat(renew(a, LONG, stale, stale)).as("stale twice on %s", label).containsExactly(stale);
            assertRowIs(b, other, SHORT, label);
            assertThat(b.release(other)).as("the other client still holds on %s", label).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aGrantWhoseLeaseRanOutAndWasTakenIsNotRenewed(String label, String uri) throws Exception {
        try (JdbcBackend a = open(uri); JdbcBackend b = open(uri)) {
            Grant stale = a.acquire("ranout", Duration.ofMillis(300), Wait.none());
            AtomicReference<Grant> taken = new AtomicReference<>();
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        taken.set(b.acquire("ranout", SHORT, Wait.none()));
                        return taken.get() != null;
                    });
            assertThat(renew(a, LONG, stale)).as("ran out on %s", label).containsExactly(stale);
            assertRowIs(b, taken.get(), SHORT, label);
            assertThat(b.release(taken.get())).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aGrantSupersededByAHandOverIsNotRenewedInAnyOrder(String label, String uri) throws Exception {
        try (JdbcBackend a = open(uri)) {
            Grant old = a.acquire("handed", LONG, Wait.none());
            Grant next = a.handOver(old, SHORT, Thread.currentThread());
            assertThat(next).isNotNull();
            assertThat(renew(a, LONG, old)).as("old alone on %s", label).containsExactly(old);
            assertRowIs(a, next, SHORT, label);
            assertThat(renew(a, SHORT, old, next)).as("old first on %s", label).containsExactly(old);
            assertThat(renew(a, SHORT, next, old)).as("old last on %s", label).containsExactly(old);
            // the same name under two lease times: two groups, each answered for itself
            List<Renewal> mixed = List.of(new Renewal(old, LONG), new Renewal(next, SHORT));
            assertThat(a.renew(mixed)).as("old in a group of its own on %s", label).containsExactly(old);
            assertRowIs(a, next, SHORT, label);
            assertThat(a.release(next)).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aLockAndAPermitOfOneNameAreNeverRenewedForEachOther(String label, String uri) throws Exception {
        try (JdbcBackend a = open(uri)) {
            Grant lock = a.acquire("both", SHORT, Wait.none());
            Grant permit = a.acquirePermit("both", 2, SHORT, Wait.none());
            assertThat(permit).isNotNull();
            assertThat(renew(a, LONG, permit)).as("a permit renewed as a lock on %s", label)
                    .containsExactly(permit);
            // the lock's own renewals carry its short lease: a long one seen on its row came from the permit's
            assertThat(a.renew(List.of(new Renewal(lock, SHORT), new Renewal(permit, LONG))))
                    .as("both as locks on %s", label).containsExactly(permit);
            assertThat(a.renewPermits(List.of(new Renewal(lock, LONG)))).as("a lock renewed as a permit on %s", label)
                    .containsExactly(lock);
            assertThat(a.renewPermits(List.of(new Renewal(permit, SHORT), new Renewal(lock, LONG))))
                    .as("both as permits on %s", label).containsExactly(lock);
            assertThat(a.admin().list("both", 10).get(0).timeLeft()).as("the lock's time on %s", label)
                    .isLessThanOrEqualTo(SHORT);
            assertThat(a.releasePermit(permit)).isTrue();
            assertThat(a.release(lock)).isTrue();
        }
    }

    /**
     * A renewer renews one grant over and over while the main thread releases it (or hands it over) and another
     * client takes the name: no renewal that started after the release returned may answer the grant renewed.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void renewalsRacingReleaseOrHandOverNeverRenewAfterIt(String label, String uri) throws Exception {
        try (JdbcBackend a = open(uri); JdbcBackend b = open(uri)) {
            for (int round = 0; round < 20; round++) {
                boolean handOver = round % 2 == 1;
                String name = "race" + round;
                Grant g = a.acquire(name, LONG, Wait.none());
                List<long[]> calls = java.util.Collections.synchronizedList(new ArrayList<>()); // start, 1=renewed
                AtomicBoolean stop = new AtomicBoolean();
                CountDownLatch first = new CountDownLatch(1);
                AtomicReference<Throwable> failed = new AtomicReference<>();
                Thread renewer = new Thread(() -> {
                    try {
                        while (!stop.get()) {
                            long start = System.nanoTime();
                            Set<Grant> lost = renew(a, LONG, g);
                            calls.add(new long[] {start, lost.isEmpty() ? 1 : 0});
                            first.countDown();
                        }
                    } catch (Throwable t) {
                        failed.set(t);
                        first.countDown();
                    }
                });
                renewer.start();
                assertThat(first.await(30, TimeUnit.SECONDS)).isTrue();
                Grant next = null;
                if (handOver) {
                    next = a.handOver(g, SHORT, Thread.currentThread());
                    assertThat(next).isNotNull();
                } else {
                    assertThat(a.release(g)).isTrue();
                }
                long after = System.nanoTime();
                Grant other = null;
                if (!handOver) {
                    other = b.acquire(name, SHORT, Wait.none());
                    assertThat(other).as("the other client takes %s on %s", name, label).isNotNull();
                }
                int before = calls.size();
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> calls.size() >= before + 5);
                stop.set(true);
                renewer.join();
                assertThat(failed.get()).as("renewer on %s", label).isNull();
                synchronized (calls) {
                    for (long[] call : calls) {
                        if (call[0] - after > 0) {
                            assertThat(call[1]).as("round %d (%s) on %s: a renewal sent after the %s answered"
                                    + " renewed", round, handOver ? "hand-over" : "release", label,
                                    handOver ? "hand-over" : "release").isZero();
                        }
                    }
                }
                if (handOver) {
                    assertRowIs(a, next, SHORT, label);
                    assertThat(a.release(next)).isTrue();
                } else {
                    assertRowIs(b, other, SHORT, label);
                    assertThat(b.release(other)).isTrue();
                }
            }
        }
    }
}
