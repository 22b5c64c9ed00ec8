package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

/**
 * A server restored from a copy taken while a client held a lock (or a permit) brings that client's node back, with
 * the client's session: the session is in the copy, and the client, refused while it has seen later transactions than
 * the restored server, reconnects with it as soon as other clients' writes bring the server past them, long before the
 * server would time it out. The client released that node before the restore and holds nothing; the name must not
 * stay held by it for as long as it lives. Alongside: a release whose delete the stopped server never got (Curator
 * repeats a guaranteed delete once reconnected; the sweep after the reconnect must leave that to it, not break it).
 */
class RevivedNodesTest {

    /** Long enough that the holder reconnects well before the restored server would time its session out. */
    private static final Duration SESSION = Duration.ofSeconds(10);
    private static final Duration CONNECTION = Duration.ofSeconds(2);
    /** A reconnect's check and a delete, with margin for a loaded machine; far less than the session. */
    private static final Duration WITHIN = CONNECTION.multipliedBy(2);
    /**
     * Writes that bring the restored server past every transaction the holder has seen (it saw a few after the copy).
     */
    private static final int CATCH_UP_WRITES = 20;

    @Test
    void aLockReleasedAfterTheCopyIsNotLeftHeldByItsLiveSessionOnceTheCopyIsRestored() throws Exception {
        nodeRevivedByTheRestoreGoes(false);
    }

    @Test
    void aPermitReleasedAfterTheCopyIsNotLeftHeldByItsLiveSessionOnceTheCopyIsRestored() throws Exception {
        nodeRevivedByTheRestoreGoes(true);
    }

    @Test
    void aLockWhoseReleaseWasLostWithTheServerIsNotLeftHeldByItsLiveSession() throws Exception {
        try (TestingServer server = TestServers.server()) {
            String uri = TestServers.uri(server.getConnectString(), "lost-release", SESSION, CONNECTION);
            try (LockStore holder = BackendStores.open(uri)) {
                ZooKeeperBackend backend = TestServers.backend(holder);
                long session = backend.currentSession();
                Lease lease = holder.lock("name").acquire();
                long token = lease.fencingToken();
                server.stop();
                try {
                    lease.release();
                } catch (StoreUnavailableException expected) {
                    // the server is down: the release's delete never reached it
                }
                server.restart();
                await("the holder reconnected in its session").atMost(SESSION)
                        .until(() -> backend.curator().getZookeeperClient().isConnected()
                                && backend.currentSession() == session);
                try (LockStore other = BackendStores.open(uri)) {
                    Object held = other.admin().list("name", 4);
                    Optional<Lease> got = other.lock("name").tryAcquire(WITHIN);
                    got.ifPresent(Lease::release);
                    assertThat(got).as("another client's acquisition of the name within %d ms, once the holder of"
                            + " token %d (whose release the stopped server never got) had reconnected in its session;"
                            + " the store held %s", WITHIN.toMillis(), token, held).isPresent();
                }
            }
        }
    }

    private static void nodeRevivedByTheRestoreGoes(boolean permit) throws Exception {
        try (RestorableServer server = RestorableServer.start()) {
            String uri = TestServers.uri(server.connectString(), "revived", SESSION, CONNECTION);
            try (LockStore holder = BackendStores.open(uri)) {
                ZooKeeperBackend backend = TestServers.backend(holder);
                long session = backend.currentSession();
                long token;
                try (Lease lease = take(holder, permit)) {
                    token = lease.fencingToken();
                    server.backUp(); // the copy holds the node, stamped, in the holder's session
                } // released: the node is deleted on the server the copy came from
                server.restoreOlderCopy();
                catchUp(server);
                await("the holder reconnected in its session to the restored server").atMost(SESSION)
                        .until(() -> backend.curator().getZookeeperClient().isConnected()
                                && backend.currentSession() == session);

                try (LockStore other = BackendStores.open(uri)) {
                    Object held = permit ? TestServers.backend(other).heldPermits("name") + " permits"
                            : other.admin().list("name", 4);
                    Optional<Lease> got = permit ? other.semaphore("name", 1).tryAcquire(WITHIN)
                            : other.lock("name").tryAcquire(WITHIN);
                    got.ifPresent(Lease::release);
                    assertThat(got).as("another client's acquisition of the name within %d ms, once the holder of"
                            + " token %d (released before the restore) had reconnected in its session; the store held"
                            + " %s", WITHIN.toMillis(), token, held).isPresent();
                }
            }
        }
    }

    private static Lease take(LockStore store, boolean permit) throws InterruptedException {
        return permit ? store.semaphore("name", 1).acquire() : store.lock("name").acquire();
    }

    /** Writes of a client of its own (a new session, which the restored server accepts) past the holder's zxid. */
    private static void catchUp(RestorableServer server) throws Exception {
        CuratorFramework raw = TestServers.rawClient(server.connectString(), "catch-up");
        try {
            for (int i = 0; i < CATCH_UP_WRITES; i++) {
                raw.create().creatingParentsIfNeeded().forPath("/scratch-" + i);
            }
        } finally {
            raw.close();
        }
    }
}
