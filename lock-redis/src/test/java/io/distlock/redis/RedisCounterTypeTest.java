package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.DistributedSemaphore;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fence keys an operator left as keys of another type (a hash where a counter goes, a string where a semaphore's
 * fences go): they hold no fencing token, so they count as none, and an acquire over them neither fails after its
 * holder was added nor leaves a holder behind.
 */
class RedisCounterTypeTest {

    @RegisterExtension
    static final OwnRedisServer server = new OwnRedisServer();

    @Test
    void aLockCounterOfAnotherTypeCountsAsNoneAndLeavesNoHolderBehind() {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            probe.raw().hset("distlock:{typed}:fence", "f", "1"); // an operator's hash where the counter goes
            long clockMicros = probe.serverClockMicros();
            try (Lease lease = store.lock("typed").tryAcquire().orElseThrow()) {
                assertThat(lease.fencingToken()).isGreaterThanOrEqualTo(clockMicros).isLessThan(1L << 53);
            }
            assertThat(probe.raw().exists("distlock:{typed}")).as("the lock key after release").isFalse();
            try (Lease next = store.lock("typed").tryAcquire().orElseThrow()) {
                assertThat(next.fencingToken()).isGreaterThanOrEqualTo(clockMicros).isLessThan(1L << 53);
            }
        }
    }

    @Test
    void aPermitCounterOrFencesKeyOfAnotherTypeHoldsNoTokensAndLeavesNoHolderBehind() throws InterruptedException {
        RedisPermits keys = new RedisPermits(null, new RedisKeys("distlock:"), null, "test", null, false);
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            probe.raw().hset(keys.fence("typed-counter"), "f", "1"); // an operator's hash where the counter goes
            probe.raw().set(keys.fences("typed-fences"), "operator"); // a string where the holders' fences go
            for (String name : List.of("typed-counter", "typed-fences")) {
                long clockMicros = probe.serverClockMicros();
                DistributedSemaphore semaphore = store.semaphore(name, 2);
                Lease first = semaphore.tryAcquire().orElseThrow();
                Lease second = semaphore.tryAcquire().orElseThrow();
                assertThat(first.fencingToken()).as(name).isGreaterThanOrEqualTo(clockMicros);
                assertThat(second.fencingToken()).as(name).isGreaterThan(first.fencingToken()).isLessThan(1L << 53);
                first.release();
                second.release();
                assertThat(probe.raw().zcard(keys.holders(name))).as("holders of %s after release", name).isZero();
            }
        }
    }

}
