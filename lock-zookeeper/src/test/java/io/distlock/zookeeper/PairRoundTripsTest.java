package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.DistributedSemaphore;
import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What an uncontended acquire+release pair costs on the wire, counted by a proxy between the store and its server
 * ({@link RoundTripCounter}, as lock-bench counts it), so nothing here depends on speed: three round trips (the create
 * with the listing and the fence read sent right behind it; the stamp; the delete) and five requests (create,
 * listing, fence read, stamp, delete), for a lock and for a permit. The bound on round trips leaves room for a reply
 * that comes back before the requests sent behind its own have gone out (a loaded machine), which the proxy counts
 * as a round trip more; a fence read after the listing, as the store made it before, costs one on every pair.
 */
class PairRoundTripsTest {

    private static final Duration SESSION = Duration.ofSeconds(4);
    private static final int PAIRS = 100;
    @RegisterExtension
    static final ClassFixture<TestingServer> server = new ClassFixture<>(TestServers::server);
    private RoundTripCounter counter;
    private LockStore store;

    @BeforeEach
    void connectThroughTheCounter() throws Exception {
        counter = new RoundTripCounter(server.get().getPort());
        store = BackendStores.open(TestServers.uri(counter.connectString(), "pairs", SESSION, SESSION));
    }

    @AfterEach
    void close() throws Exception {
        store.close();
        counter.close();
    }

    @Test
    void aLockPairCostsThreeRoundTripsAndFiveRequests() throws Exception {
        assertCosts(() -> store.lock("pair").acquire());
    }

    @Test
    void aPermitPairCostsThreeRoundTripsAndFiveRequests() throws Exception {
        DistributedSemaphore semaphore = store.semaphore("pair", 2);
        assertCosts(semaphore::acquire);
    }

    /**
     * Takes and releases a lease once (the chroot, the root and the name's parent are made once), then {@link #PAIRS}
     * times, counted; a failure names the last pair's round trips and request types ({@link RoundTripCounter#trace}).
     */
    private void assertCosts(Acquire acquire) throws Exception {
        acquire.lease().release();
        long roundTrips = counter.roundTrips();
        long requests = counter.requests();
        int traced = 0;
        for (int i = 0; i < PAIRS; i++) {
            traced = counter.trace().length();
            acquire.lease().release();
        }
        String last = counter.trace().substring(traced);
        roundTrips = counter.roundTrips() - roundTrips;
        requests = counter.requests() - requests;
        assertThat(roundTrips).as("round trips of %d pairs (%d requests; the last pair:%s)", PAIRS, requests, last)
                .isLessThan(PAIRS * 7L / 2);
        assertThat(requests).as("requests of %d pairs (%d round trips; the last pair:%s)", PAIRS, roundTrips, last)
                .isLessThanOrEqualTo(PAIRS * 5L + 5);
    }

    /** One acquire of the lock or semaphore under test. */
    @FunctionalInterface
    private interface Acquire {
        Lease lease() throws Exception;
    }
}
