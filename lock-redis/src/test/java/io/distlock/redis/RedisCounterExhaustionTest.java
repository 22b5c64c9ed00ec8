package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.distlock.Lease;
import io.distlock.LockException;
import io.distlock.LockStore;
import io.distlock.DistributedSemaphore;
import io.distlock.tck.check.HandOverHolder;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
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
            probe.raw().set("distlock:{edge}:fence", Long.toString(LAST_TOKEN - 1));
            try (Lease lease = store.lock("edge").tryAcquire().orElseThrow()) {
                assertThat(lease.fencingToken()).isEqualTo(LAST_TOKEN);
            }
            assertThatThrownBy(() -> store.lock("edge").tryAcquire()).as("the acquire after token 2^53 - 1")
                    .isInstanceOf(LockException.class).hasMessageContaining("distlock:{edge}:fence is exhausted");
            assertThat(probe.raw().exists("distlock:{edge}")).as("the lock key after the refusal").isFalse();
            assertThat(probe.raw().get("distlock:{edge}:fence")).isEqualTo(Long.toString(LAST_TOKEN));
        }
    }

    @Test
    void aHandOverOverACounterAtTheLastTokenLeavesTheLockFree() throws Exception {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s"));
                LockStore other = LockStore.open(server.uri("timeout=1s"))) {
            Lease held = store.lock("edge-hand-over").tryAcquire().orElseThrow();
            FutureTask<Lease> waiter = new FutureTask<>(() -> store.lock("edge-hand-over").acquire());
            Thread thread = new Thread(waiter, "edge-hand-over-waiter");
            thread.start();
            HandOverHolder.awaitQueuedAtLocalGate(thread);
            probe.raw().set("distlock:{edge-hand-over}:fence", Long.toString(LAST_TOKEN)); // an operator's value
            Throwable atRelease = catchThrowable(held::release); // the hand-over to the waiter is refused
            assertThat(probe.raw().exists("distlock:{edge-hand-over}"))
                    .as("the lock key after the refused hand-over (release threw %s)", atRelease).isFalse();
            assertThat(atRelease).as("the holder's release (it held the lock until then: nothing was lost)").isNull();
            assertThat(catchThrowable(() -> waiter.get(20, TimeUnit.SECONDS))).as("the waiter's acquire")
                    .hasMessageContaining("is exhausted");
            assertThatThrownBy(() -> other.lock("edge-hand-over").tryAcquire()).hasMessageContaining("is exhausted");
            thread.join(TimeUnit.SECONDS.toMillis(20));
        }
    }

    @Test
    void aPermitCounterAtTheLastTokenRefusesTheNextAcquireAndLeavesNoHolder() throws InterruptedException {
        RedisPermits keys = new RedisPermits(null, new RedisKeys("distlock:"), null, "test", null, false);
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            probe.raw().set(keys.fence("edge-permits"), Long.toString(LAST_TOKEN - 1));
            DistributedSemaphore semaphore = store.semaphore("edge-permits", 2);
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
