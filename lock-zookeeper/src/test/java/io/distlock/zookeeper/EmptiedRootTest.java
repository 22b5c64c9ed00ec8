package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.api.CreateBuilder;
import org.apache.curator.framework.imps.CreateFaults;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The roots ({@code /distlock}, {@code /distlock-semaphores}) are CONTAINER nodes like the names' parents, so the
 * server deletes a root once its last name's parent went. When a contender's create finds its name's parent missing,
 * Curator checks each ancestor and creates the missing ones; a root deleted between that check and the create of the
 * name's parent makes the create fail with NONODE. The test deletes the emptied root itself at that point (the server
 * may delete an empty container at any time): the acquire must still be granted, with a larger token than the last.
 */
class EmptiedRootTest {

    private static final Duration PROMPTLY = Duration.ofSeconds(5);
    private static final String CHROOT = "emptied";

    @RegisterExtension
    static final ClassFixture<ChrootedServer> zk = new ClassFixture<>(() -> ChrootedServer.start(CHROOT));



    /**
     * Empties {@code root} as the server would (deletes the names' parents, left empty by their releases), and makes
     * the next create of {@code store} delete {@code root} right before Curator creates {@code parent} again.
     */
    private static AtomicBoolean deleteRootBeforeItsParentIsMade(LockStore store, String root, String parent)
            throws Exception {
        if (zk.get().raw().checkExists().forPath(root) == null) {
            zk.get().raw().create().withMode(CreateMode.CONTAINER).forPath(root);
        }
        for (String child : zk.get().raw().getChildren().forPath(root)) {
            zk.get().raw().delete().forPath(root + "/" + child);
        }
        AtomicBoolean armed = new AtomicBoolean(true);
        TestServers.backend(store).createHook = (CreateBuilder builder) -> CreateFaults.beforeCreating(builder,
                path -> {
                    if (path.endsWith(parent) && armed.compareAndSet(true, false)) {
                        try {
                            zk.get().raw().delete().forPath(root);
                        } catch (Exception e) {
                            throw new IllegalStateException("could not delete the emptied root " + root, e);
                        }
                    }
                });
        return armed;
    }

    @Test
    void aLockWhoseRootGoesWhileItsParentIsMadeAgainIsStillGrantedWithALargerToken() throws Exception {
        try (LockStore store = zk.get().open()) {
            Lease first = store.lock("again").tryAcquire(PROMPTLY).orElseThrow();
            long before = first.fencingToken();
            first.release();
            AtomicBoolean armed = deleteRootBeforeItsParentIsMade(store, ZooKeeperBackend.ROOT,
                    ZooKeeperBackend.parentPath("again"));

            Lease lease = store.lock("again").tryAcquire(PROMPTLY).orElseThrow();

            assertThat(armed).as("the root was deleted in the window").isFalse();
            assertThat(lease.fencingToken()).as("a re-created parent still gives a larger token").isGreaterThan(before);
            lease.release();
        }
    }

    @Test
    void aSingleAttemptOnAFreeLockWhoseRootGoesIsStillGranted() throws Exception {
        try (LockStore store = zk.get().open()) {
            AtomicBoolean armed = deleteRootBeforeItsParentIsMade(store, ZooKeeperBackend.ROOT,
                    ZooKeeperBackend.parentPath("once"));

            Lease lease = store.lock("once").tryAcquire().orElseThrow();

            assertThat(armed).as("the root was deleted in the window").isFalse();
            lease.release();
        }
    }

    @Test
    void aPermitWhoseRootGoesWhileItsParentIsMadeAgainIsStillGranted() throws Exception {
        try (LockStore store = zk.get().open()) {
            Lease first = store.semaphore("permits", 2).tryAcquire(PROMPTLY).orElseThrow();
            long before = first.fencingToken();
            first.release();
            AtomicBoolean armed = deleteRootBeforeItsParentIsMade(store, ZooKeeperPermits.ROOT,
                    ZooKeeperPermits.parentPath("permits"));

            Lease lease = store.semaphore("permits", 2).tryAcquire(PROMPTLY).orElseThrow();

            assertThat(armed).as("the root was deleted in the window").isFalse();
            assertThat(lease.fencingToken()).as("a re-created parent still gives a larger token").isGreaterThan(before);
            lease.release();
        }
    }
}
