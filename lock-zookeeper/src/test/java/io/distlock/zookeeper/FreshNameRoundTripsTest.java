package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What taking a name never used before costs on the wire (issue #33: many distinct names held at once), counted by a
 * proxy between the store and its server ({@link RoundTripCounter}), so nothing here depends on speed. The parent's
 * create goes out in the same burst as our node's create, its listing and its fence read: a try-lock costs its check
 * of the queue, that burst and the stamp (3 round trips, 6 requests), a waiting acquire the burst and the stamp (2
 * round trips, 5 requests). Through Curator's create of missing parents it cost 10 and 9 round trips (a create that
 * found no parent, a check of each level of the path: chroot, root and parent, the parent's create, the create again,
 * then a listing and a fence read, because the listing sent behind the first create came too early). The bounds on
 * round trips leave room for a reply that comes back before the requests sent behind its own have gone out (a loaded
 * machine). The sweep that watches held nodes in the background is held off, so that only the acquires' requests
 * count.
 */
class FreshNameRoundTripsTest {

    private static final Duration SESSION = Duration.ofSeconds(4);
    private static final int NAMES = 100;
    @RegisterExtension
    static final ClassFixture<TestingServer> server = new ClassFixture<>(TestServers::server);
    private RoundTripCounter counter;
    private LockStore store;

    @BeforeEach
    void connectThroughTheCounter() throws Exception {
        counter = new RoundTripCounter(server.get().getPort());
        store = BackendStores.open(TestServers.uri(counter.connectString(), "fresh", SESSION, SESSION));
        store.lock("first").acquire().release(); // the chroot and the roots are made once
        store.semaphore("first", 2).acquire().release();
        // no watch of held nodes in the background: only what the acquires send is counted
        TestServers.backend(store).heldNodes().sweeping = false;
    }

    @AfterEach
    void close() throws Exception {
        store.close();
        counter.close();
    }

    @Test
    void aTryLockOfAFreshNameCostsThreeRoundTripsAndSixRequests() throws Exception {
        assertCosts("try", 3, 6, name -> store.lock(name).tryAcquire().orElseThrow());
    }

    @Test
    void anAcquireOfAFreshNameCostsTwoRoundTripsAndFiveRequests() throws Exception {
        assertCosts("wait", 2, 5, name -> store.lock(name).acquire());
    }

    @Test
    void aPermitOfAFreshSemaphoreCostsTwoRoundTripsAndFiveRequests() throws Exception {
        assertCosts("permit", 2, 5, name -> store.semaphore(name, 2).acquire());
    }

    /**
     * Takes {@link #NAMES} fresh names and holds them all, counted; a failure names the last one's round trips and
     * request types ({@link RoundTripCounter#trace}). Then each is checked held and released.
     */
    private void assertCosts(String prefix, int roundTripsEach, int requestsEach, Acquire acquire) throws Exception {
        long roundTrips = counter.roundTrips();
        long requests = counter.requests();
        int traced = 0;
        List<Lease> leases = new ArrayList<>();
        for (int i = 0; i < NAMES; i++) {
            traced = counter.trace().length();
            leases.add(acquire.lease(prefix + "-" + i));
        }
        String last = counter.trace().substring(traced);
        roundTrips = counter.roundTrips() - roundTrips;
        requests = counter.requests() - requests;
        assertThat(roundTrips).as("round trips of %d fresh names (%d requests; the last:%s)", NAMES, requests, last)
                .isLessThan(NAMES * (roundTripsEach * 2L + 1) / 2);
        assertThat(requests).as("requests of %d fresh names (%d round trips; the last:%s)", NAMES, roundTrips, last)
                .isLessThanOrEqualTo(NAMES * (long) requestsEach + 5);
        for (Lease lease : leases) {
            assertThat(lease.isValid()).isTrue();
            assertThat(lease.fencingToken()).isPositive();
            lease.release();
        }
    }

    /** One acquire of the named lock or semaphore under test. */
    @FunctionalInterface
    private interface Acquire {
        Lease lease(String name) throws Exception;
    }
}
