package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a contended hand-over costs on the wire, counted by a proxy between three stores and their server
 * ({@link RoundTripCounter}), so nothing here depends on speed. One store holds the lock, the second waits behind it,
 * the third behind the second; the holder releases, the second takes the lock, and the released store queues again
 * behind the third. Per hand-over that is the delete (1 request), the new holder's listing and fence read (2) and its
 * stamp (1), and the queueing store's create with its listing and fence read (3) and its watch (1): 8 requests in 5
 * round trips, and one watch event (the deletion). A waiter that watched its predecessor with a data watch was also
 * woken by the stamp written into its predecessor's node when that came first: one listing, fence read and watch
 * more (11 requests in 7 round trips, two events). The same for the holders a semaphore's first waiter watches.
 */
class HandOffRoundTripsTest {

    private static final Duration SESSION = Duration.ofSeconds(4);
    private static final int HAND_OFFS = 30;
    private static final String NAME = "handed-over";
    @RegisterExtension
    static final ClassFixture<TestingServer> server = new ClassFixture<>(TestServers::server);

    @Test
    void aHandOverWakesOnlyTheNextWaiter() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(3);
        try (RoundTripCounter counter = new RoundTripCounter(server.get().getPort());
                LockStore first = open(counter); LockStore second = open(counter); LockStore third = open(counter)) {
            LockStore[] stores = {first, second, third};
            Lease held = first.lock(NAME).acquire();
            Future<Lease> next = queue(threads, second);
            Future<Lease> after = queue(threads, third);
            long roundTrips = counter.roundTrips();
            long requests = counter.requests();
            long notifications = counter.notifications();
            int traced = 0;
            for (int i = 0; i < HAND_OFFS; i++) {
                traced = counter.trace().length();
                held.release();
                held = next.get(10, TimeUnit.SECONDS);
                next = after;
                after = queue(threads, stores[i % 3]); // the store that released queues again, behind the others
            }
            String last = counter.trace().substring(traced);
            roundTrips = counter.roundTrips() - roundTrips;
            requests = counter.requests() - requests;
            notifications = counter.notifications() - notifications;
            String counts = String.format("%d hand-overs: %d round trips, %d requests, %d watch events (the last:%s)",
                    HAND_OFFS, roundTrips, requests, notifications, last);
            System.out.println(counts);
            assertThat(notifications).as("watch events, " + counts).isLessThanOrEqualTo(HAND_OFFS + 2L);
            assertThat(requests).as("requests, " + counts).isLessThanOrEqualTo(HAND_OFFS * 8L + 5);
            assertThat(roundTrips).as("round trips, " + counts).isLessThan(HAND_OFFS * 11L / 2);
            held.release();
            next.get(10, TimeUnit.SECONDS).release();
            after.get(10, TimeUnit.SECONDS).release();
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * The path from a release to the grant of the client already waiting right behind it, counted from the release's
     * start to the grant (two stores taking turns, as lock-bench's hand-off): the release's delete (1 request, 1 round
     * trip), then the woken waiter's listing with its stamp sent in the same burst (2 requests, 1 round trip). The
     * waiter queued after the holder's stamp, so the fence it read behind its listing is still the parent's when its
     * predecessor goes (the predecessor's node and the parent carry the stamp's {@code mzxid}), and the stamp need not
     * wait for a second read: it writes at that version, and a fence moved since makes it fail and read again. A
     * waiter that listed, read the fence and only then stamped took 4 requests in 3 round trips here.
     */
    @Test
    void theWaiterRightBehindStampsInTheBurstOfItsListing() throws Exception {
        int handOffs = 20;
        ExecutorService threads = Executors.newFixedThreadPool(1);
        try (RoundTripCounter counter = new RoundTripCounter(server.get().getPort());
                LockStore first = open(counter); LockStore second = open(counter)) {
            LockStore[] stores = {first, second};
            Lease held = first.lock(NAME).acquire();
            long roundTrips = 0;
            long requests = 0;
            StringBuilder traces = new StringBuilder();
            for (int i = 0; i < handOffs; i++) {
                Future<Lease> next = queue(threads, stores[(i + 1) % 2]); // queued behind the stamped holder
                long roundTripsBefore = counter.roundTrips();
                long requestsBefore = counter.requests();
                int traced = counter.trace().length();
                held.release();
                held = next.get(10, TimeUnit.SECONDS);
                roundTrips += counter.roundTrips() - roundTripsBefore;
                requests += counter.requests() - requestsBefore;
                traces.append(" /").append(counter.trace().substring(traced));
            }
            String counts = String.format("%d hand-offs, release to grant: %d round trips, %d requests (each:%s)",
                    handOffs, roundTrips, requests, traces);
            System.out.println(counts);
            assertThat(requests).as("requests, " + counts).isLessThanOrEqualTo(handOffs * 3L + 2);
            // 2 a hand-off; a listing answered before the stamp behind it was sent counts twice: margin for that
            assertThat(roundTrips).as("round trips, " + counts).isLessThanOrEqualTo(handOffs * 5L / 2);
            held.release();
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * The first waiter of a semaphore watches the holders until they go: a holder that has come first but not yet
     * stamped its token (here held just before its stamp) does not wake it with that stamp. Only the release of a
     * holder does, counted as the watch events the server sent the waiter until it holds: one (a data watch on the
     * holders got two, the stamp's and the release's).
     */
    @Test
    void aPermitHoldersStampDoesNotWakeTheFirstWaiter() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(2);
        CountDownLatch stamping = new CountDownLatch(1);
        CountDownLatch stamp = new CountDownLatch(1);
        String connect = server.get().getConnectString();
        try (RoundTripCounter counter = new RoundTripCounter(server.get().getPort());
                LockStore holder = open(connect); LockStore stamper = open(connect); LockStore waiter = open(counter)) {
            Lease held = holder.semaphore(NAME, 2).acquire();
            AtomicBoolean first = new AtomicBoolean(true);
            TestServers.backend(stamper).beforeStampHook = () -> {
                if (first.compareAndSet(true, false)) {
                    stamping.countDown();
                    try {
                        stamp.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            };
            Future<Lease> stamped = threads.submit(() -> stamper.semaphore(NAME, 2).acquire());
            assertThat(stamping.await(10, TimeUnit.SECONDS)).as("the second holder came first, not stamped").isTrue();
            Future<Lease> waiting = threads.submit(() -> waiter.semaphore(NAME, 2).acquire());
            await("the first waiter watches both holders").atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(1)).until(() -> TestServers.clientWatchers(waiter) == 2);
            long notifications = counter.notifications();
            int traced = counter.trace().length();
            stamp.countDown();
            Lease second = stamped.get(10, TimeUnit.SECONDS);
            held.release();
            Lease third = waiting.get(10, TimeUnit.SECONDS);
            notifications = counter.notifications() - notifications;
            assertThat(notifications).as("watch events the first waiter got until it held (its requests:%s)",
                    counter.trace().substring(traced)).isEqualTo(1);
            second.release();
            third.release();
        } finally {
            threads.shutdownNow();
        }
    }

    /** A store through the counter whose held-node sweep is off (it would watch a node held across two sweeps). */
    private static LockStore open(RoundTripCounter counter) {
        return open(counter.connectString());
    }

    /** A store on {@code connectString} whose held-node sweep is off. */
    private static LockStore open(String connectString) {
        LockStore store = BackendStores.open(TestServers.uri(connectString, "hand-off", SESSION, SESSION));
        TestServers.backend(store).heldNodes().sweeping = false;
        return store;
    }

    /** Starts an acquire of {@code store} and returns once it waits in line: its watch on its predecessor is set. */
    private static Future<Lease> queue(ExecutorService threads, LockStore store) {
        Future<Lease> lease = threads.submit(() -> store.lock(NAME).acquire());
        await("the acquire is waiting, its predecessor watched").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(1)).until(() -> TestServers.clientWatchers(store) == 1);
        return lease;
    }
}
