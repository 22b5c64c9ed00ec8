package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.api.CreateBuilder;
import org.apache.curator.framework.imps.CreateFaults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A create whose reply is lost (the node exists on the server, the client saw a connection loss) must not leave an
 * orphan node that blocks the lock. Curator sends the create again (the store does not use its protection mode: Z8 of
 * lock-tck/DEFECTS.md), so the lost node sits just ahead of the one the contender uses, and the contender deletes it
 * when it reads it as its predecessor (our session's, used by nothing of ours). The fault is Curator's own test
 * switch, so the node really is created on the server before the client is told it failed; the connection stays up,
 * so no sweep after a reconnect helps here ({@link LostCreateReplyTest} loses the reply with the connection).
 */
class ProtectedCreateTest {

    private static final Duration PROMPTLY = Duration.ofSeconds(3);

    @RegisterExtension
    static final ClassFixture<ChrootedServer> zk = new ClassFixture<>(() -> ChrootedServer.start("protected"));



    private static int nodesOf(String name) throws Exception {
        return zk.get().raw().getChildren().forPath(ZooKeeperBackend.parentPath(name)).size();
    }

    private static AtomicBoolean loseNextReply(LockStore store) {
        AtomicBoolean armed = new AtomicBoolean(true);
        TestServers.backend(store).createHook = (CreateBuilder builder) -> {
            if (armed.compareAndSet(true, false)) {
                CreateFaults.loseReplyOf(builder);
            }
        };
        return armed;
    }

    @Test
    void lostReplyOnAFreeLockStillGrantsItWithOneNode() throws Exception {
        try (LockStore store = zk.get().open(); LockStore other = zk.get().open()) {
            AtomicBoolean armed = loseNextReply(store);
            Lease lease = store.lock("free").tryAcquire(PROMPTLY).orElseThrow();
            assertThat(armed).as("the fault was injected").isFalse();
            assertThat(nodesOf("free")).as("the lost create's node was deleted, not left ahead of ours").isEqualTo(1);
            lease.release();
            assertThat(nodesOf("free")).as("no orphan left").isZero();
            assertThat(other.lock("free").tryAcquire()).as("nothing blocks the next client").isPresent()
                    .get().satisfies(Lease::release);
        }
    }

    @Test
    void lostReplyWhileQueuedLeavesNothingBehindWhenTheWaiterGivesUp() throws Exception {
        try (LockStore holder = zk.get().open(); LockStore store = zk.get().open();
                LockStore next = zk.get().open()) {
            Lease held = holder.lock("busy").acquire();
            AtomicBoolean armed = loseNextReply(store);
            assertThat(store.lock("busy").tryAcquire(Duration.ofMillis(500))).isEmpty();
            assertThat(armed).as("the fault was injected").isFalse();
            assertThat(nodesOf("busy")).as("only the holder's node is left").isEqualTo(1);
            held.release();
            assertThat(next.lock("busy").tryAcquire()).as("the lock is free at once after its release").isPresent()
                    .get().satisfies(Lease::release);
        }
    }
}
