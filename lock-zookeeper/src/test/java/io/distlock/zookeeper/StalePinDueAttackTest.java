package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.ClassFixture;
import io.distlock.zookeeper.FencePinTest.Kind;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A hostile review's attack on the pinned delete of {@link EmptiedParents} (defect N3's fix, {@link FencePin}): a
 * store waits for the server clock to pass its released grant's token, then deletes the pin and the parent at the
 * version its stamp left the parent at. Meanwhile an operator moves the name's floor further ahead the way
 * {@code zkCli} allows (deleteall of the pinned parent, {@code create -c} of it holding a floor an hour ahead), and
 * another store grants from that floor: its stamp leaves the new parent pinned at the same data version (1). The
 * waiting store must not take the new parent for its own: deleting it, with its pin, makes the next token start at
 * the clock again, an hour below one already granted. Locks and semaphores alike.
 */
class StalePinDueAttackTest {

    private static final Duration CONTAINER_CHECK = Duration.ofMillis(250);
    /** The first floor's lead, the store's 2 s delay, and a margin for a loaded 2-core machine. */
    private static final Duration BOUND = Duration.ofSeconds(20);

    @RegisterExtension
    static final ClassFixture<ChrootedServer> zk = new ClassFixture<>(
            () -> ChrootedServer.start("stale-pin", CONTAINER_CHECK));

    @Test
    void aStoreWaitingForTheClockNeverDeletesAParentMadeAgainWithAFloorFurtherAhead() throws Exception {
        for (Kind kind : Kind.values()) {
            attack(kind);
        }
    }

    private static void attack(Kind kind) throws Exception {
        String name = "moved-twice-" + kind;
        String parent = kind.parent(name);
        String pin = FencePin.path(parent);
        CuratorFramework raw = zk.get().raw();
        try (LockStore waiting = zk.get().open()) {
            ZooKeeperNameLeftovers.floorAhead(raw, parent, Duration.ofSeconds(4));
            long first = released(kind.acquire(waiting, name)); // its store now waits for the clock to pass it
            raw.delete().deletingChildrenIfNeeded().forPath(parent); // the operator: deleteall, then create -c
            long floor = ZooKeeperNameLeftovers.floorAhead(raw, parent, Duration.ofHours(1));
            assertThat(floor).isGreaterThan(first);
            long ahead;
            try (LockStore other = zk.get().open()) {
                ahead = released(kind.acquire(other, name));
            } // closed: it waits for nothing
            assertThat(ahead).as("token granted from the operator's second floor").isGreaterThan(floor);
            assertThat(raw.checkExists().forPath(parent).getVersion()).as("the new parent's data version after "
                    + "its one stamp (the version the waiting store's stamp left the first parent at)").isEqualTo(1);
            // the waiting store writes the pin 2 s after its release (its token 4 s ahead: not passed yet); it puts the
            // check off to when the clock has passed its token by 2 s and writes the pin again, then decides (or, if
            // it saw the pin is not the one of its stamp, drops the check at once)
            ZooKeeperBackend backend = TestServers.backend(waiting);
            long decided = first / 1000 + EmptiedParents.DELAY.toMillis() + 2 * EmptiedParents.TICK_MS;
            await().atMost(BOUND).until(() -> {
                Stat stat = raw.checkExists().forPath(pin);
                return stat == null || stat.getVersion() >= 2
                        || System.currentTimeMillis() > decided && backend.emptiedParents().pending() == 0;
            });
            ZooKeeper session = backend.curator().getZookeeperClient().getZooKeeper();
            afterWhatItSent(session); // the reply to that write is handled, so whatever it sends next was sent
            assertThat(session.exists(backend.heldNodes().fullPath(parent), false)).as("the %s parent of '%s' made "
                    + "again by an operator with a floor an hour ahead and granted from, after the store that waited "
                    + "for the clock to pass its earlier token decided", kind, name).isNotNull();
            try (LockStore later = zk.get().open(); Lease lease = kind.acquire(later, name)) {
                assertThat(lease.fencingToken()).as("%s token of '%s' after a token an hour ahead of the clock", kind,
                        name)
                        .isGreaterThan(ahead);
            }
        }
    }

    /**
     * Returns once every reply {@code session} had received when this was called has been handled: a sync's reply
     * comes after them and its callback runs after theirs, on the one event thread.
     */
    private static void afterWhatItSent(ZooKeeper session) throws InterruptedException {
        CountDownLatch synced = new CountDownLatch(1);
        session.sync("/", (rc, path, ctx) -> synced.countDown(), null);
        assertThat(synced.await(10, TimeUnit.SECONDS)).as("sync answered").isTrue();
    }

    private static long released(Lease lease) {
        long token = lease.fencingToken();
        lease.release();
        return token;
    }
}
