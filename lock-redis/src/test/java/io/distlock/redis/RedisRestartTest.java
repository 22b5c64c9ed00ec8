package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A redis-server without persistence restarted while a lease is held: it forgets every lock. Without the restart
 * guard a second holder gets the lock at once while the first still believes it holds it (the known unsafe case,
 * shown here on purpose); the fencing token still grows, so a resource that checks tokens refuses the old holder.
 * With {@code restartGuard=true} nothing is granted until the longest lease time has passed.
 */
class RedisRestartTest {

    private RedisServer server;

    @BeforeEach
    void start() {
        server = RedisServer.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void withoutGuardRestartLetsASecondHolderInEarlyButFencingTokensStillGrow() throws Exception {
        try (LockStore first = LockStore.open(server.uri("timeout=1s"));
                LockStore second = LockStore.open(server.uri("timeout=1s"))) {
            // next renewal in 20 s
            LockOptions longLease = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(60));
            Lease held = first.lock("restart", longLease).tryAcquire().orElseThrow();

            server.restart(); // no persistence: the lock key and the fencing counter are gone

            Optional<Lease> early = second.lock("restart", longLease).tryAcquire(Duration.ofSeconds(5));
            // The known unsafe case: two holders at once. Only the fencing token tells them apart.
            assertThat(early).as("a second holder right after a restart without the guard").isPresent();
            assertThat(held.isValid()).as("the first holder has not noticed yet").isTrue();
            assertThat(early.get().fencingToken()).as("fencing token after the counter was lost")
                    .isGreaterThan(held.fencingToken());
            early.get().release();
        }
    }

    @Test
    void fencingTokensKeepGrowingAcrossRestartsThatLoseTheCounter() {
        long before;
        try (LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            Lease a = store.lock("fence").tryAcquire().orElseThrow();
            a.release();
            Lease b = store.lock("fence").tryAcquire().orElseThrow();
            assertThat(b.fencingToken()).isGreaterThan(a.fencingToken());
            before = b.fencingToken();
            b.release();
        }
        server.restart();
        try (LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            Lease after = store.lock("fence").tryAcquire().orElseThrow();
            assertThat(after.fencingToken()).isGreaterThan(before);
            after.release();
        }
    }

    @Test
    void withGuardNoSecondHolderUntilTheLongestLeaseHasPassed() throws Exception {
        Duration maxLease = Duration.ofSeconds(3);
        String uri = server.uri("timeout=1s&restartGuard=true&maxLeaseTime=3s");
        LockOptions options = LockOptions.defaults().withLeaseTime(maxLease);
        try (LockStore first = LockStore.open(uri); LockStore second = LockStore.open(uri)) {
            // a fresh server has no marker either: the first grant waits out the window once
            Lease held = first.lock("guarded", options).tryAcquire(maxLease.plusSeconds(5)).orElseThrow();

            server.restart();
            long restartedAt = System.nanoTime();

            Lease next = second.lock("guarded", options).tryAcquire(maxLease.plusSeconds(10)).orElseThrow();
            long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restartedAt);
            // the first holder's lease, last renewed before the restart, has run out by now
            assertThat(waitedMs).as("ms from restart to the next grant").isGreaterThanOrEqualTo(
                    maxLease.toMillis() - 50);
            assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
            next.release();
        }
    }

    @Test
    void withGuardLeasesLongerThanTheWindowAreRefused() {
        try (LockStore store = LockStore.open(server.uri("restartGuard=true&maxLeaseTime=2s"))) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.lock("too long",
                    LockOptions.defaults().withLeaseTime(Duration.ofSeconds(5))).tryAcquire())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxLeaseTime");
        }
    }
}
