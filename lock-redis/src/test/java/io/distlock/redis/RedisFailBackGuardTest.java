package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.tck.fixture.FreePorts;
import java.time.Duration;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;

/**
 * The restart guard across a fail-back, done by hand with {@code REPLICAOF}: master A (holding its own guard marker)
 * is demoted and never resyncs, replica B is promoted, X takes a lock on B once B's guard window has passed, B dies
 * and A is promoted again. A's data is an older history than the one X's lock lives in; its {@code run_id} is the same
 * as when it wrote its marker, its {@code master_replid} is not (a promotion gives a new one). A's guard must open a
 * window: no one may be granted the lock on A while X's lease may still be valid.
 */
class RedisFailBackGuardTest {

    private static final Duration MAX_LEASE = Duration.ofSeconds(2);
    private static final String GUARD = "timeout=1s&restartGuard=true&maxLeaseTime=2s";

    @Test
    void anOldMasterPromotedAgainWithoutResyncOpensAWindow() throws Exception {
        try (RedisServer a = RedisServer.start();
                RedisServer b = RedisServer.start("--replicaof", "127.0.0.1", Integer.toString(a.port()))) {
            LockOptions options = LockOptions.defaults().withLeaseTime(MAX_LEASE);
            try (RedisClient rawB = RedisClient.create("127.0.0.1", b.port())) {
                Awaitility.await("B in sync with A").atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> rawB.info("replication").contains("master_link_status:up"));
            }
            try (LockStore onA = LockStore.open(a.uri(GUARD))) {
                // A writes its marker (its run_id) and waits its first window out, then grants
                onA.lock("warm-up", options).tryAcquire(MAX_LEASE.plusSeconds(5)).orElseThrow().release();
            }

            // fail-over by hand: A is demoted towards a master it never reaches (it keeps its data), B promoted
            try (RedisClient rawA = RedisClient.create("127.0.0.1", a.port());
                    RedisClient rawB = RedisClient.create("127.0.0.1", b.port())) {
                rawA.sendCommand(Protocol.Command.REPLICAOF, "127.0.0.1", Integer.toString(FreePorts.next()));
                rawB.sendCommand(Protocol.Command.REPLICAOF, "NO", "ONE");
            }
            try (LockStore x = LockStore.open(b.uri(GUARD))) {
                Lease held = x.lock("L", options).tryAcquire(MAX_LEASE.plusSeconds(5)).orElseThrow();

                b.kill(); // B dies; A is promoted again, with the history it had before B's
                try (RedisClient rawA = RedisClient.create("127.0.0.1", a.port())) {
                    rawA.sendCommand(Protocol.Command.REPLICAOF, "NO", "ONE");
                }
                try (LockStore y = LockStore.open(a.uri(GUARD))) {
                    Optional<Lease> early = y.lock("L", options).tryAcquire();
                    boolean xStillValid = held.isValid();
                    assertThat(early).as("Y granted L on the promoted old master while X's lease (valid: "
                            + xStillValid + ") may still run").isEmpty();
                }
            }
        }
    }
}
