package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Explorer for names freed and taken again while the server reclaims emptied CONTAINER nodes (see
 * {@link EmptiedRootTest} for the one interleaving forced): the server checks its containers every millisecond, and
 * each round takes a name again as soon as the server has deleted its emptied parent, when the server is about to
 * delete the emptied root too. Every acquisition must be granted, with a token larger than the one before.
 */
class EmptiedRootLoopTest {

    private static final int ROUNDS = 150;
    private static final Duration PROMPTLY = Duration.ofSeconds(5);
    private static final String CHROOT = "loop";

    @RegisterExtension
    static final ClassFixture<ChrootedServer> zk =
            new ClassFixture<>(() -> ChrootedServer.start(CHROOT, Duration.ofMillis(1)));



    @Test
    void aNameTakenAgainWhileItsRootIsReclaimedIsGrantedEveryTimeWithGrowingTokens() throws Exception {
        try (LockStore store = zk.get().open()) {
            long lockToken = 0;
            long permitToken = 0;
            for (int round = 0; round < ROUNDS; round++) {
                try (Lease lease = store.lock("again").tryAcquire(PROMPTLY).orElseThrow()) {
                    assertThat(lease.fencingToken()).as("lock token in round %d", round).isGreaterThan(lockToken);
                    lockToken = lease.fencingToken();
                }
                try (Lease lease = store.semaphore("again", 2).tryAcquire(PROMPTLY).orElseThrow()) {
                    assertThat(lease.fencingToken()).as("permit token in round %d", round).isGreaterThan(permitToken);
                    permitToken = lease.fencingToken();
                }
                awaitGone(ZooKeeperBackend.parentPath("again"));
                awaitGone(ZooKeeperPermits.parentPath("again"));
            }
        }
    }

    /** Waits until the server has deleted the emptied {@code path} (its next check, a millisecond away). */
    private static void awaitGone(String path) {
        Awaitility.await().atMost(PROMPTLY).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .until(() -> zk.get().raw().checkExists().forPath(path) == null);
    }
}
