package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Defect N3 of lock-tck/DEFECTS.md: a lock's or a semaphore's parent whose last token is ahead of the server clock
 * (an operator's floor) keeps its pin ({@link FencePin}), so the server's container check, every 250 ms here, does
 * not delete it once emptied, also when no store is left to care; the pin and the parent go once the clock has passed
 * the token, and the stamp of a token below the clock deletes a pin it finds. Each name's next token stays above
 * every one granted before.
 */
class FencePinTest {

    private static final Duration CONTAINER_CHECK = Duration.ofMillis(250);
    /** A store's delay (2 s), the floor's lead and a margin for a loaded 2-core machine. */
    private static final Duration BOUND = Duration.ofSeconds(15);

    @RegisterExtension
    static final ClassFixture<ChrootedServer> zk = new ClassFixture<>(
            () -> ChrootedServer.start("pin", CONTAINER_CHECK));

    /** A lock or a semaphore of one name, and where its parent is (also for the attacks on the pin). */
    enum Kind {
        LOCK, SEMAPHORE;

        Lease acquire(LockStore store, String name) throws InterruptedException {
            return this == LOCK ? store.lock(name).acquire() : store.semaphore(name, 2).acquire();
        }

        String parent(String name) {
            return this == LOCK ? ZooKeeperBackend.parentPath(name) : ZooKeeperPermits.parentPath(name);
        }
    }

    @Test
    void aParentAheadOfTheClockOutlivesItsStoreAndTheServersContainerCheck() throws Exception {
        for (Kind kind : Kind.values()) {
            String name = "outlives-" + kind;
            String parent = kind.parent(name);
            CuratorFramework raw = zk.get().raw();
            long ahead;
            try (LockStore store = zk.get().open()) {
                long floor = ZooKeeperNameLeftovers.floorAhead(raw, parent, Duration.ofHours(1));
                ahead = released(kind.acquire(store, name));
                assertThat(ahead).as("%s token granted after an operator's floor of %d", kind, floor)
                        .isGreaterThan(floor);
                kind.acquire(store, name + ":later").release();
            } // closed: the store deletes nothing more
            String later = kind.parent(name + ":later");
            await().atMost(BOUND).untilAsserted(() -> assertThat(raw.checkExists().forPath(later))
                    .as("the %s parent released after '%s', deleted by the server's container check", kind, name)
                    .isNull());
            assertThat(raw.checkExists().forPath(parent)).as("the %s parent of '%s', its token an hour ahead of the "
                    + "clock, after the server's container check", kind, name).isNotNull();
            assertThat(raw.checkExists().forPath(FencePin.path(parent))).as("its pin").isNotNull();
            try (LockStore store = zk.get().open()) {
                assertThat(released(kind.acquire(store, name))).as("%s token of '%s' taken again by another store",
                        kind, name).isGreaterThan(ahead);
            }
        }
    }

    @Test
    void thePinAndItsParentGoOnceTheClockPassedTheToken() throws Exception {
        for (Kind kind : Kind.values()) {
            String name = "passed-" + kind;
            String parent = kind.parent(name);
            CuratorFramework raw = zk.get().raw();
            try (LockStore store = zk.get().open()) {
                ZooKeeperNameLeftovers.floorAhead(raw, parent, Duration.ofSeconds(3));
                long ahead = released(kind.acquire(store, name));
                assertThat(raw.checkExists().forPath(FencePin.path(parent))).as("the pin of the %s parent of '%s' "
                        + "right after a grant ahead of the clock", kind, name).isNotNull();
                await().atMost(BOUND).untilAsserted(() -> assertThat(raw.checkExists().forPath(parent))
                        .as("the %s parent of '%s' %s after a token 3 s ahead of the clock", kind, name, BOUND)
                        .isNull());
                assertThat(released(kind.acquire(store, name))).as("%s token of '%s' after its parent went", kind,
                        name).isGreaterThan(ahead);
            }
        }
    }

    @Test
    void aStampBelowTheClockDeletesThePinItFinds() throws Exception {
        for (Kind kind : Kind.values()) {
            String name = "stamped-" + kind;
            String pin = FencePin.path(kind.parent(name));
            CuratorFramework raw = zk.get().raw();
            long ahead;
            try (LockStore store = zk.get().open()) {
                ZooKeeperNameLeftovers.floorAhead(raw, kind.parent(name), Duration.ofSeconds(1));
                ahead = released(kind.acquire(store, name));
            } // closed: its pin is left for the name's next grant
            assertThat(raw.checkExists().forPath(pin)).as("the pin of '%s' after a %s grant ahead of the clock", name,
                    kind).isNotNull();
            await().atMost(BOUND).until(() -> System.currentTimeMillis() * 1000 > ahead + 1000); // the clock passed
            try (LockStore store = zk.get().open()) {
                long first = released(kind.acquire(store, name)); // its read still shows the last write before
                try (Lease second = kind.acquire(store, name)) {
                    assertThat(raw.checkExists().forPath(pin)).as("the pin of '%s' once a %s grant below the clock "
                            + "found it", name, kind).isNull();
                    assertThat(second.fencingToken()).as("%s tokens of '%s'", kind, name).isGreaterThan(first);
                    assertThat(first).isGreaterThan(ahead);
                }
            }
        }
    }

    /** Releases {@code lease}; answers its token. */
    private static long released(Lease lease) {
        long token = lease.fencingToken();
        lease.release();
        return token;
    }
}
