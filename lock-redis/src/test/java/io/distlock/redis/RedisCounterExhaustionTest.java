package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockException;
import io.distlock.LockStore;
import io.distlock.Semaphore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A counter an operator left just below 2^53, the last value the fence rule reads as a token: the grant that reaches
 * the last token below 2^53 gets it, and the next acquire is refused clearly and leaves no holder, never granted a
 * token that is read back as none (after which the next grant would start at the clock, below it).
 */
class RedisCounterExhaustionTest {

    @RegisterExtension
    static final OwnRedisServer server = new OwnRedisServer();

    private static final long LAST_TOKEN = (1L << 53) - 1;

    @Test
    void aLockCounterAtTheLastTokenRefusesTheNextAcquireAndLeavesNoHolder() {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            probe.raw().set("distlock:fence:{edge}", Long.toString(LAST_TOKEN - 1));
            try (Lease lease = store.lock("edge").tryAcquire().orElseThrow()) {
                assertThat(lease.fencingToken()).isEqualTo(LAST_TOKEN);
            }
            assertThatThrownBy(() -> store.lock("edge").tryAcquire()).as("the acquire after token 2^53 - 1")
                    .isInstanceOf(LockException.class).hasMessageContaining("distlock:fence:{edge} is exhausted");
            assertThat(probe.raw().exists("distlock:{edge}")).as("the lock key after the refusal").isFalse();
            assertThat(probe.raw().get("distlock:fence:{edge}")).isEqualTo(Long.toString(LAST_TOKEN));
        }
    }

    @Test
    void aPermitCounterAtTheLastTokenRefusesTheNextAcquireAndLeavesNoHolder() throws InterruptedException {
        RedisPermits keys = new RedisPermits(null, new RedisKeys("distlock:"), null, "test", null, false);
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            probe.raw().set(keys.fence("edge-permits"), Long.toString(LAST_TOKEN - 1));
            Semaphore semaphore = store.semaphore("edge-permits", 2);
            Lease first = semaphore.tryAcquire().orElseThrow();
            assertThat(first.fencingToken()).isEqualTo(LAST_TOKEN);
            assertThatThrownBy(semaphore::tryAcquire).as("the acquire after token 2^53 - 1")
                    .isInstanceOf(LockException.class).hasMessageContaining("is exhausted");
            assertThat(probe.raw().zcard(keys.holders("edge-permits"))).as("holders after the refusal").isEqualTo(1);
            first.release();
            assertThat(probe.raw().zcard(keys.holders("edge-permits"))).as("holders after release").isZero();
        }
    }
}
