package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.tck.fixture.FreePorts;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Kit §25.2 on Redlock with a node whose write-back did not arrive: an operator's force-release under an earlier
 * holder's fencing token must leave the lock to its new holder. Master C was down for the earlier holder, so its
 * counter stayed one below that holder's token; the new holder's grant on A, B and C counts C up to exactly that
 * token, and its write-back to C is held back (a slow link) until the node timeout drops C from the grant: C then
 * holds the new holder's value under a counter equal to the stale token.
 */
class RedlockConditionalForceReleaseTest {

    private static final long AHEAD = 4_000_000_000_000_000L; // µs, far ahead of every master's clock
    private static final LockOptions LONG_LEASE = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(60));
    private static final RedisKeys KEYS = new RedisKeys("distlock:");

    @Test
    void aStaleTokenMatchingALaggingNodesCounterDoesNotBreakTheNewHolder() throws Exception {
        String name = "stale-token";
        List<RedisServer> masters = List.of(RedisServer.start(), RedisServer.start(), RedisServer.start());
        RedisServer a = masters.get(0);
        RedisServer b = masters.get(1);
        RedisServer c = masters.get(2);
        try (FaultProxy toC = new FaultProxy(0, c.port());
                LockStore withoutC = LockStore.open(uri(a.port(), b.port(), FreePorts.next())
                        + RedlockTckTest.QUERY);
                LockStore throughProxy = LockStore.open(uri(a.port(), b.port(), toC.port())
                        + RedlockTckTest.QUERY);
                LockStore operator = LockStore.open(uri(a.port(), b.port(), c.port()) + RedlockTckTest.QUERY)) {
            for (RedisServer master : masters) {
                SplitMajorities.setCounter(master, KEYS.fence(name), AHEAD - 1);
            }
            Lease earlier = withoutC.lock(name, LONG_LEASE).tryAcquire().orElseThrow();
            long stale = earlier.fencingToken();
            assertThat(stale).as("A's and B's counter + 1; C was down").isEqualTo(AHEAD);
            earlier.release();

            toC.holdNext(RedisScripts.RAISE_FENCE.sha());
            Lease now = throughProxy.lock(name, LONG_LEASE).tryAcquire().orElseThrow();
            assertThat(toC.awaitHeld(10, TimeUnit.SECONDS)).as("the write-back to C was held").isTrue();
            assertThat(now.fencingToken()).isGreaterThan(stale);

            boolean broken = operator.admin().forceRelease(name, stale);
            assertThat(broken).as("force-release under the earlier holder's token " + stale).isFalse();
            assertThat(now.isValid()).isTrue();
            assertThat(operator.lock(name).tryAcquire()).as("the new holder keeps the lock").isEmpty();
            toC.releaseHeld();
            now.release();
        } finally {
            masters.forEach(RedisServer::close);
        }
    }

    private static String uri(int first, int second, int third) {
        return "redlock://127.0.0.1:" + first + ",127.0.0.1:" + second + ",127.0.0.1:" + third + "?";
    }
}
