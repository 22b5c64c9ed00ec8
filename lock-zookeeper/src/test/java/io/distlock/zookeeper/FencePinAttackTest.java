package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockInfo;
import io.distlock.LockStore;
import io.distlock.tck.fixture.ClassFixture;
import io.distlock.zookeeper.FencePinTest.Kind;
import java.time.Duration;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A hostile review's attacks on defect N3's fix ({@link FencePin}) from the side of what an operator sees and does:
 * a node named {@code fence-pin} an operator made by hand that goes with its session, the admin view and
 * force-release of a pinned name, a floor more than a day ahead ({@link EmptiedParents#MAX_PIN_WAIT}), and names that
 * look like the pin or a contender. The server deletes emptied CONTAINER nodes every 250 ms.
 */
class FencePinAttackTest {

    private static final Duration CONTAINER_CHECK = Duration.ofMillis(250);
    private static final Duration BOUND = Duration.ofSeconds(15);

    @RegisterExtension
    static final ClassFixture<ChrootedServer> zk = new ClassFixture<>(
            () -> ChrootedServer.start("pin-attack", CONTAINER_CHECK));

    /**
     * An operator's EPHEMERAL node at the pin's path, there when a grant ahead of the clock stamps: the stamp finds
     * "a pin" and checks it is there; when the operator's session ends the node goes, and the emptied parent must
     * still not be the server's to delete while its token is ahead of the clock.
     */
    @Test
    void anEphemeralNodeAtThePinsPathDoesNotLeaveTheParentToTheServer() throws Exception {
        for (Kind kind : Kind.values()) {
            String name = "ephemeral-pin-" + kind;
            String parent = kind.parent(name);
            CuratorFramework raw = zk.get().raw();
            long ahead;
            try (LockStore store = zk.get().open()) {
                ZooKeeperNameLeftovers.floorAhead(raw, parent, Duration.ofHours(1));
                try (CuratorFramework operator = TestServers.rawClient(zk.get().server().getConnectString(),
                        "pin-attack")) {
                    operator.create().withMode(CreateMode.EPHEMERAL).forPath(FencePin.path(parent));
                    ahead = released(kind.acquire(store, name));
                } // the operator's session ends: its node goes
                assertThat(raw.checkExists().forPath(FencePin.path(parent)) == null
                        || raw.checkExists().forPath(FencePin.path(parent)).getEphemeralOwner() == 0)
                        .as("what is left at the pin's path of the %s parent of '%s' is no EPHEMERAL node", kind, name)
                        .isTrue();
                kind.acquire(store, name + ":later").release(); // emptied after the operator's node went
            }
            String later = kind.parent(name + ":later");
            await().atMost(BOUND).untilAsserted(() -> assertThat(raw.checkExists().forPath(later))
                    .as("the %s parent released after '%s', deleted by the server's container check", kind, name)
                    .isNull());
            try (LockStore store = zk.get().open()) {
                assertThat(released(kind.acquire(store, name))).as("%s token of '%s' after a token an hour ahead "
                        + "of the clock, whose stamp found an operator's EPHEMERAL node at the pin's path", kind, name)
                        .isGreaterThan(ahead);
            }
        }
    }

    /**
     * The admin view and force-release of a lock whose parent holds its pin: the pin is no holder, the holder's token
     * is the one granted, and the conditional force-release takes it (the stamp that made the pin is the holder's
     * own transaction).
     */
    @Test
    void theAdminViewAndForceReleaseSeeThroughThePin() throws Exception {
        String name = "admin-pinned";
        String parent = ZooKeeperBackend.parentPath(name);
        CuratorFramework raw = zk.get().raw();
        try (LockStore store = zk.get().open(); LockStore operator = zk.get().open()) {
            ZooKeeperNameLeftovers.floorAhead(raw, parent, Duration.ofHours(1));
            long first = released(store.lock(name).acquire());
            assertThat(raw.checkExists().forPath(FencePin.path(parent))).as("the pin").isNotNull();
            assertThat(operator.admin().list(name, 10)).as("the admin view of '%s', pinned, held by nobody", name)
                    .isEmpty();
            assertThat(operator.admin().forceRelease(name)).as("force-release of '%s', pinned, held by nobody", name)
                    .isFalse();
            Lease lease = store.lock(name).acquire();
            assertThat(lease.fencingToken()).isGreaterThan(first);
            List<LockInfo> listed = operator.admin().list(name, 10);
            assertThat(listed).as("the admin view of '%s', pinned and held", name).hasSize(1);
            assertThat(listed.get(0).fencingToken()).as("the token the admin view shows").isEqualTo(
                    lease.fencingToken());
            assertThat(operator.admin().forceRelease(name, lease.fencingToken()))
                    .as("conditional force-release of '%s' at the holder's token, its parent pinned", name).isTrue();
            assertThat(raw.checkExists().forPath(FencePin.path(parent))).as("the pin after the force-release")
                    .isNotNull();
            try (Lease next = store.lock(name).acquire()) {
                assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
            }
        }
    }

    /**
     * A floor a day and a second ahead: the releasing store does not keep a check for it (bounded: one write of the pin
     * 2 s after the release, then nothing), the pin keeps the parent through the server's checks, and the next grant,
     * from another store, is above it.
     */
    @Test
    void aFloorMoreThanADayAheadKeepsItsPinAndNoCheckWaitsForIt() throws Exception {
        for (Kind kind : Kind.values()) {
            String name = "day-ahead-" + kind;
            String parent = kind.parent(name);
            String pin = FencePin.path(parent);
            CuratorFramework raw = zk.get().raw();
            long ahead;
            try (LockStore store = zk.get().open()) {
                ZooKeeperNameLeftovers.floorAhead(raw, parent, EmptiedParents.MAX_PIN_WAIT.plusSeconds(1));
                ahead = released(kind.acquire(store, name));
                EmptiedParents parents = TestServers.backend(store).emptiedParents();
                await().atMost(BOUND).until(() -> raw.checkExists().forPath(pin).getVersion() > 0); // written once
                await().atMost(BOUND).until(() -> parents.pending() == 0);
                kind.acquire(store, name + ":later").release();
            }
            String later = kind.parent(name + ":later");
            await().atMost(BOUND).untilAsserted(() -> assertThat(raw.checkExists().forPath(later))
                    .as("the %s parent released after '%s', deleted by the server's container check", kind, name)
                    .isNull());
            assertThat(raw.checkExists().forPath(pin)).as("the pin of the %s parent of '%s', a day and a second "
                    + "ahead", kind, name).isNotNull();
            try (LockStore store = zk.get().open()) {
                assertThat(released(kind.acquire(store, name))).as("%s token of '%s'", kind, name)
                        .isGreaterThan(ahead);
            }
        }
    }

    /**
     * Names spelled like the pin or like a contender's node: each is a parent of its own (a name never makes a child),
     * so pins and queues do not mix; tokens of each grow past a floor ahead of the clock.
     */
    @Test
    void namesThatLookLikeThePinOrAContenderAreNamesLikeAnyOther() throws Exception {
        CuratorFramework raw = zk.get().raw();
        try (LockStore store = zk.get().open()) {
            for (Kind kind : Kind.values()) {
                for (String name : List.of(FencePin.NAME, "x/" + FencePin.NAME, "lock-0000000001",
                        "p1-lock-0000000000")) {
                    long floor = ZooKeeperNameLeftovers.floorAhead(raw, kind.parent(name), Duration.ofMinutes(10));
                    long first = released(kind.acquire(store, name));
                    try (Lease second = kind.acquire(store, name)) {
                        assertThat(first).as("%s token of '%s'", kind, name).isGreaterThan(floor);
                        assertThat(second.fencingToken()).as("%s token of '%s'", kind, name).isGreaterThan(first);
                        assertThat(raw.getChildren().forPath(kind.parent(name))).as("children of the %s parent of "
                                + "'%s'", kind, name).hasSize(2).contains(FencePin.NAME);
                    }
                }
            }
        }
    }

    /**
     * Another write of the pin between a store's write of it (which read the clock: passed) and its delete of pin and
     * parent, as another store's check of an earlier grant of the name makes once; here a plain client writes the pin
     * over and over until a second after the store's check is due. Once the writes stop, the pin and its parent must
     * still go, the clock having passed their token, rather than stay for good.
     */
    @Test
    void aPinWrittenBetweenTheChecksWriteAndItsDeleteDoesNotLeaveThePinForGood() throws Exception {
        for (Kind kind : Kind.values()) {
            String name = "rewritten-pin-" + kind;
            String parent = kind.parent(name);
            String pin = FencePin.path(parent);
            CuratorFramework raw = zk.get().raw();
            try (LockStore store = zk.get().open()) {
                ZooKeeperNameLeftovers.floorAhead(raw, parent, Duration.ofMillis(100));
                released(kind.acquire(store, name));
                long until = System.nanoTime() + EmptiedParents.DELAY.plusSeconds(1).toNanos();
                int writes = 0;
                try {
                    while (System.nanoTime() - until < 0) {
                        raw.setData().forPath(pin, FencePin.DATA);
                        writes++;
                    }
                } catch (KeeperException.NoNodeException deleted) {
                    // the store's delete came between two writes
                }
                int written = writes;
                await().atMost(BOUND).untilAsserted(() -> assertThat(raw.checkExists().forPath(parent))
                        .as("the %s parent of '%s', its pin written %d times meanwhile, %s after the writes stopped",
                                kind, name, written, BOUND).isNull());
            }
        }
    }

    private static long released(Lease lease) {
        long token = lease.fencingToken();
        lease.release();
        return token;
    }
}
