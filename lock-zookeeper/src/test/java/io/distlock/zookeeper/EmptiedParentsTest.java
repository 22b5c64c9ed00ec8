package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.spi.Grant;
import io.distlock.spi.LeaseEvents;
import io.distlock.spi.Wait;
import io.distlock.tck.fixture.ClassFixture;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 33, "names used once": the parents of names a store released are gone a few seconds after their release (the
 * store deletes them, {@link EmptiedParents}), not only at the server's container check, which this test's server
 * runs every 10 minutes (every minute by default, at most 10,000 a minute), so only the store can have deleted them.
 * A name taken again after its parent went still gets a larger token.
 */
class EmptiedParentsTest {

    /** The store's delay (2 s) and a margin for a loaded 2-core machine. */
    private static final Duration BOUND = Duration.ofSeconds(12);
    private static final int LOCK_NAMES = 150;
    private static final int SEMAPHORE_NAMES = 50;

    @RegisterExtension
    static final ClassFixture<ChrootedServer> zk = new ClassFixture<>(
            () -> ChrootedServer.start("emptied", Duration.ofMinutes(10)));

    @Test
    void namesUsedOnceLeaveNoParentSoonAfterTheirRelease() throws Exception {
        CuratorFramework raw = zk.get().raw();
        try (LockStore store = zk.get().open()) {
            for (int i = 0; i < LOCK_NAMES; i++) {
                store.lock("once:lock:" + i).acquire().release();
            }
            for (int i = 0; i < SEMAPHORE_NAMES; i++) {
                store.semaphore("once:sem:" + i, 2).acquire().release();
            }
            assertThat(parents(raw, "once:")).as("parents right after the releases").isPositive();

            await().atMost(BOUND).untilAsserted(() -> assertThat(parents(raw, "once:"))
                    .as("parents left of %d lock and %d semaphore names used once, %s after their release "
                            + "(container check every 10 minutes)", LOCK_NAMES, SEMAPHORE_NAMES, BOUND)
                    .isZero());
        }
    }

    @Test
    void aNameTakenAgainAfterItsParentWentGetsALargerToken() throws Exception {
        CuratorFramework raw = zk.get().raw();
        try (LockStore store = zk.get().open()) {
            List<Long> lockTokens = new ArrayList<>();
            List<Long> permitTokens = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                lockTokens.add(released(store.lock("again").acquire()));
                permitTokens.add(released(store.semaphore("again", 2).acquire()));
                await().atMost(BOUND).untilAsserted(() -> assertThat(parents(raw, "again"))
                        .as("parents of lock and semaphore 'again' %s after their release", BOUND).isZero());
            }
            assertThat(lockTokens).as("tokens of lock 'again', its parent deleted after each").isSorted()
                    .doesNotHaveDuplicates();
            assertThat(permitTokens).as("tokens of semaphore 'again', its parent deleted after each").isSorted()
                    .doesNotHaveDuplicates();
        }
    }

    @Test
    void aTokenAheadOfTheClockKeepsItsParent() throws Exception {
        CuratorFramework raw = zk.get().raw();
        String parent = ZooKeeperBackend.parentPath("ahead");
        try (LockStore store = zk.get().open()) {
            store.lock("ahead").acquire().release();
            long floor = (System.currentTimeMillis() + Duration.ofHours(1).toMillis()) * 1000; // an operator's floor
            raw.setData().forPath(parent, Long.toString(floor).getBytes(StandardCharsets.US_ASCII));
            long ahead = released(store.lock("ahead").acquire());
            assertThat(ahead).as("token granted after an operator's floor").isGreaterThan(floor);

            releasedAfter(store, "ahead");
            assertThat(raw.checkExists().forPath(parent))
                    .as("parent of 'ahead', whose last token is an hour ahead of the clock, after a name released "
                            + "later lost its parent").isNotNull();
            assertThat(released(store.lock("ahead").acquire())).as("token of 'ahead' taken again").isGreaterThan(ahead);
        }
    }

    @Test
    void aParentWrittenSinceTheReleaseIsKept() throws Exception {
        CuratorFramework raw = zk.get().raw();
        String parent = ZooKeeperBackend.parentPath("written");
        try (LockStore store = zk.get().open()) {
            long token = released(store.lock("written").acquire());
            raw.setData().forPath(parent, "5".getBytes(StandardCharsets.US_ASCII)); // version moves on, floor below

            releasedAfter(store, "written");
            assertThat(raw.checkExists().forPath(parent))
                    .as("parent of 'written', whose data an operator wrote after its release").isNotNull();
            assertThat(released(store.lock("written").acquire())).as("token of 'written' taken again")
                    .isGreaterThan(token);
        }
    }

    @Test
    void aNameHeldByAnotherStoreKeepsItsParentUntilThatOneReleasesIt() throws Exception {
        CuratorFramework raw = zk.get().raw();
        String parent = ZooKeeperBackend.parentPath("shared");
        try (LockStore first = zk.get().open(); LockStore second = zk.get().open()) {
            long token = released(first.lock("shared").acquire());
            Lease held = second.lock("shared").acquire();
            assertThat(held.fencingToken()).isGreaterThan(token);

            releasedAfter(first, "shared");
            assertThat(raw.checkExists().forPath(parent)).as("parent of 'shared', held by another store").isNotNull();
            assertThat(held.isValid()).as("the other store's lease").isTrue();
            held.release();
            await().atMost(BOUND).untilAsserted(() -> assertThat(parents(raw, "shared"))
                    .as("parent of 'shared' %s after the other store released it", BOUND).isZero());
        }
    }

    @Test
    void pendingDeletesAreDroppedOnceSentAndWhenTheStoreCloses() throws Exception {
        CuratorFramework raw = zk.get().raw();
        LockStore store = zk.get().open();
        EmptiedParents emptied = TestServers.backend(store).emptiedParents();
        try {
            for (int i = 0; i < 20; i++) {
                store.lock("pending:" + i).acquire().release();
            }
            assertThat(emptied.pending()).as("names waiting for their parent's delete").isBetween(1L, 20L);
            await().atMost(BOUND).untilAsserted(() -> assertThat(parents(raw, "pending:")).isZero());
            assertThat(emptied.pending()).as("names waiting once every parent went").isZero();

            for (int i = 0; i < 20; i++) {
                store.lock("closed:" + i).acquire().release();
            }
        } finally {
            store.close();
        }
        assertThat(emptied.pending()).as("names waiting after the store closed").isZero();
    }

    @Test
    void atMostTheirLimitOfNamesWaitAndANameWaitingAlreadyMovesOn() throws Exception {
        ZooKeeperBackend backend = TestServers.backend(TestServers.uri(zk.get().server().getConnectString(),
                "emptied", Duration.ofSeconds(6), Duration.ofSeconds(5)));
        backend.attach(LeaseEvents.NONE);
        EmptiedParents emptied = new EmptiedParents(backend.curator(), backend.heldNodes(), "limit-test", 5);
        List<Grant> grants = new ArrayList<>();
        try {
            for (int i = 0; i < 10; i++) {
                grants.add(backend.acquire("limit:" + i, Duration.ofSeconds(30), Wait.none()));
            }
            for (Grant grant : grants) {
                emptied.released(grant); // still held: any delete is refused
            }
            assertThat(emptied.pending()).as("names waiting with a limit of 5, 10 released").isEqualTo(5);
            emptied.released(grants.get(0));
            assertThat(emptied.pending()).as("after a waiting name was released again").isEqualTo(5);
        } finally {
            emptied.close();
            for (Grant grant : grants) {
                backend.release(grant);
            }
            backend.close();
        }
        assertThat(emptied.pending()).as("names waiting once closed").isZero();
    }

    /**
     * Releases a name of its own, released after {@code name}, and waits until its parent is gone: by then a delete
     * of {@code name}'s parent, due no later, has been sent.
     */
    private static void releasedAfter(LockStore store, String name) throws Exception {
        String later = name + ":later";
        store.lock(later).acquire().release();
        await().atMost(BOUND).untilAsserted(() -> assertThat(parents(zk.get().raw(), later))
                .as("parent of '%s' %s after its release", later, BOUND).isZero());
    }

    /** Releases {@code lease}; answers its token. */
    private static long released(Lease lease) {
        long token = lease.fencingToken();
        lease.release();
        return token;
    }

    /** How many lock and semaphore parents under the store's roots belong to names starting with {@code prefix}. */
    static long parents(CuratorFramework raw, String prefix) throws Exception {
        String encoded = NodeNames.encode(prefix);
        long found = 0;
        for (String root : List.of(ZooKeeperBackend.ROOT, ZooKeeperPermits.ROOT)) {
            try {
                found += raw.getChildren().forPath(root).stream().filter(child -> child.startsWith(encoded)).count();
            } catch (KeeperException.NoNodeException e) {
                // the root itself is gone: no parent under it
            }
        }
        return found;
    }
}
