package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LeaseState;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.LockStoreListener;
import io.distlock.StoreOptions;
import io.distlock.StoreUnavailableException;
import io.distlock.spi.StoreUri;
import io.distlock.tck.AvailabilityRules;
import io.distlock.tck.StoreOutage;
import io.distlock.tck.TckHarness;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The kit's availability rules (§14) against a database that stops answering instead of closing its sockets: the
 * clients reach it through a {@link FrozenPath}, and the outage freezes it. Only the clients' own timeouts can bound
 * an operation then, so each subclass's {@link #operationTimeout()} follows from the timeouts its URI sets. §14.1's
 * "store with no server behind it" is a second path, frozen from the start: a server that accepts and never answers.
 * Two more checks follow the kit's: a renewal and a release that fall into the freeze.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class PausedServerTckBase extends TckHarness implements AvailabilityRules {

    /** How long "at once" may take on a loaded 2-core machine, as in the kit. */
    private static final Duration PROMPTLY = Duration.ofSeconds(3);
    /** How late the lease clock's tick may fire on a loaded 2-core machine. */
    private static final Duration TICK_MARGIN = Duration.ofMillis(250);

    private FrozenPath path;
    private FrozenPath blackHole;
    private String direct;
    private String uri;
    private String unreachable;
    /** The listener the next client {@link #newClient()} opens is told of its background work with, or null. */
    private LockStoreListener nextClientListener;

    /** Starts the server if the test owns one; returns the store URI that reaches it directly, options included. */
    protected abstract String openDirectUri() throws Exception;

    /** Stops the server if the test owns one. */
    protected void closeServer() {
    }

    @BeforeAll
    final void openPaths() throws Exception {
        direct = openDirectUri();
        path = new FrozenPath(direct);
        uri = path.through(direct);
        blackHole = new FrozenPath(direct);
        blackHole.freeze();
        unreachable = blackHole.through(direct);
    }

    @AfterAll
    final void closePaths() {
        blackHole.close();
        path.close();
        closeServer();
    }

    /** The store URI through the path the outage freezes. */
    protected final String uri() {
        return uri;
    }

    @Override
    protected LockStore newClient() {
        LockStoreListener listener = nextClientListener;
        nextClientListener = null;
        return LockStore.open(uri, listener == null ? StoreOptions.defaults()
                : StoreOptions.defaults().withListener(listener));
    }

    @Override
    protected String unreachableStoreUri() {
        return unreachable;
    }

    @Override
    protected StoreOutage outage() {
        return new StoreOutage() {
            @Override
            public void stop() {
                path.freeze();
            }

            @Override
            public void start() {
                path.unfreeze();
            }
        };
    }

    @Test
    @DisplayName("a lease whose renewals fall into a freeze is reported lost by its lease time, and every renewal call "
            + "returns within one operation timeout")
    void renewalDuringFreezeLosesTheLeaseInTimeAndReturns() throws Exception {
        Duration leaseTime = Duration.ofSeconds(3);
        List<Long> failedCallNanos = new CopyOnWriteArrayList<>();
        LockStore holder = clientRecordingFailedRenewals(failedCallNanos);
        CompletableFuture<Long> lostAt = new CompletableFuture<>();
        long beforeAcquire = System.nanoTime();
        Lease lease = holder.lock(tck().name("renewed through a freeze"),
                LockOptions.defaults().withLeaseTime(leaseTime)).tryAcquire().orElseThrow();
        lease.onLost(e -> lostAt.complete(System.nanoTime()));
        path.freeze();
        try {
            long lost;
            try {
                lost = lostAt.get(leaseTime.plus(PROMPTLY).toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError("a " + leaseTime.toMillis() + " ms lease was not reported lost "
                        + Duration.ofNanos(System.nanoTime() - beforeAcquire).toMillis()
                        + " ms after its acquire, with the path frozen since just after it (state " + lease.state()
                        + ")");
            }
            assertThat(Duration.ofNanos(lost - beforeAcquire)).as("reported lost by the end of its lease time")
                    .isLessThan(leaseTime.plus(TICK_MARGIN));
            assertThat(lease.state()).isEqualTo(LeaseState.LOST);
            assertThat(lease.isValid()).isFalse();
            // no renewal starts after the loss, so every call still in the store has begun before it
            Duration bound = operationTimeout().plus(PROMPTLY);
            Awaitility.await("renewal calls still in the store " + bound.toMillis() + " ms after the loss")
                    .atMost(bound).pollInterval(Duration.ofMillis(100)).until(() -> renewalsInFlight().isEmpty());
            assertThat(failedCallNanos).as("renewal calls that failed in the freeze").isNotEmpty()
                    .allSatisfy(nanos -> assertThat(Duration.ofNanos(nanos)).as("one renewal call")
                            .isLessThanOrEqualTo(operationTimeout()));
        } finally {
            path.unfreeze();
        }
    }

    @Test
    @DisplayName("a release in a freeze returns, or raises StoreUnavailableException, within one operation timeout")
    void releaseDuringFreezeReturnsWithinOneOperationTimeout() throws Exception {
        LockStore holder = tck().client();
        Lease lease = holder.lock(tck().name("released in a freeze")).tryAcquire().orElseThrow();
        path.freeze();
        try {
            long start = System.nanoTime();
            CompletableFuture<Void> release = CompletableFuture.runAsync(lease::release);
            Duration bound = operationTimeout().plus(PROMPTLY);
            try {
                release.get(bound.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError("release() had not returned " + bound.toMillis()
                        + " ms after it started, with the path frozen");
            } catch (ExecutionException e) {
                assertThat(e.getCause()).as("the only failure allowed").isInstanceOf(StoreUnavailableException.class);
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(bound);
        } finally {
            path.unfreeze();
        }
    }

    /**
     * Each renewal statement is bounded by a sixth of the lease, at most the socket timeout: 1 s for a 6 s lease,
     * 5 s (all of the socket timeout) for the default 30 s one.
     */
    @ParameterizedTest(name = "lease {0} s")
    @ValueSource(ints = {6, 30})
    @DisplayName("a renewal statement on its way when the path freezes returns within one operation timeout")
    void renewalStatementCaughtByTheFreezeReturnsWithinOneOperationTimeout(int leaseSeconds) throws Exception {
        Duration leaseTime = Duration.ofSeconds(leaseSeconds);
        List<Long> failedCallNanos = new CopyOnWriteArrayList<>();
        LockStore holder = clientRecordingFailedRenewals(failedCallNanos);
        String name = tck().name("renewal caught by the freeze");
        Lease lease = holder.lock(name, LockOptions.defaults().withLeaseTime(leaseTime)).tryAcquire().orElseThrow();
        JdbcSettings settings = JdbcSettings.parse(StoreUri.parse(direct));
        // an operator's row lock, taken past the proxy, keeps the renewal statement in the store until the freeze
        try (Connection operator = DriverManager.getConnection(settings.driverUrl())) {
            operator.setAutoCommit(false);
            try (PreparedStatement ps = operator.prepareStatement(
                    "SELECT name FROM " + settings.table() + " WHERE name = ? FOR UPDATE")) {
                ps.setString(1, name);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).as("the lease's row").isTrue();
                }
            }
            Awaitility.await("a renewal statement waiting for the locked row").atMost(leaseTime)
                    .pollInterval(Duration.ofMillis(20)).until(() -> !renewalStatementsInFlight().isEmpty());
            path.freeze();
            operator.rollback();
        }
        try {
            Duration bound = leaseTime.plus(operationTimeout()).plus(PROMPTLY);
            Awaitility.await("renewal calls still in the store").atMost(bound).pollInterval(Duration.ofMillis(100))
                    .until(() -> !failedCallNanos.isEmpty() && renewalsInFlight().isEmpty());
            assertThat(failedCallNanos).as("renewal calls that failed in the freeze").isNotEmpty()
                    .allSatisfy(nanos -> assertThat(Duration.ofNanos(nanos)).as("one renewal call")
                            .isLessThanOrEqualTo(operationTimeout()));
        } finally {
            path.unfreeze();
        }
    }

    /** The threads of this path's stores whose renewal call has a connection and runs its statement. */
    private List<String> renewalStatementsInFlight() {
        return renewalsInFlight().stream().filter(t -> t.contains(" in statement")).toList();
    }

    /** The threads of this path's stores that are inside a JDBC renewal call, with where they are. */
    private List<String> renewalsInFlight() {
        String mine = path.hostPort();
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().startsWith("distlock-renewal-")
                        && e.getKey().getName().contains(mine))
                .filter(e -> Arrays.stream(e.getValue()).anyMatch(f -> f.getClassName().equals(
                        JdbcBackend.class.getName()) && f.getMethodName().startsWith("renew")))
                .map(e -> e.getKey().getName() + " at " + e.getValue()[0] + (Arrays.stream(e.getValue())
                        .anyMatch(f -> f.getClassName().startsWith(SqlDialect.class.getPackageName() + ".")
                                && f.getClassName().endsWith("Dialect")
                                && f.getMethodName().equals("renew")) ? " in statement" : ""))
                .toList();
    }

    /** A client of the store under test that adds the time of each failed renewal call to {@code failedCallNanos}. */
    private LockStore clientRecordingFailedRenewals(List<Long> failedCallNanos) {
        nextClientListener = new LockStoreListener() {
            @Override
            public void renewalFailed(int leases, long nanos, RuntimeException cause) {
                failedCallNanos.add(nanos);
            }
        };
        return tck().client();
    }
}
