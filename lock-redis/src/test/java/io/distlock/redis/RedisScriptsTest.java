package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code SCRIPT FLUSH} empties the server's script cache: acquire, extend and release go on working. The acquire
 * script's fence is {@code max(last + 1, server clock in microseconds)}.
 */
class RedisScriptsTest {

    @RegisterExtension
    static final OwnRedisServer server = new OwnRedisServer();

    @Test
    void noScriptAfterScriptFlushIsTransparent() {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            LockOptions options = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(10));
            Lease first = store.lock("flushed", options).tryAcquire().orElseThrow();

            probe.raw().scriptFlush();
            assertThat(probe.raw().scriptExists(RedisScripts.RENEW.sha(), RedisScripts.RENEW.sha())).isFalse();
            assertThat(first.extend(Duration.ofSeconds(20))).isTrue(); // batched renew path, in a pipeline
            assertThat(probe.raw().pttl("distlock:{flushed}")).isGreaterThan(10_000);

            probe.raw().scriptFlush();
            first.release(); // release path

            probe.raw().scriptFlush();
            Lease second = store.lock("flushed", options).tryAcquire().orElseThrow(); // acquire path
            assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
            assertThat(probe.raw().scriptExists(RedisScripts.ACQUIRE.sha(), RedisScripts.ACQUIRE.sha())).isTrue();
            second.release();
        }
    }

    @Test
    void aFenceCounterAheadOfTheClockGrowsByOneAndAMissingOrBadOneStartsAtTheClock() {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            long ahead = 5_000_000_000_000_000L; // 2128 as microseconds: past any clock, below 2^53
            probe.raw().set("distlock:{ahead}:fence", Long.toString(ahead));
            try (Lease first = store.lock("ahead").tryAcquire().orElseThrow()) {
                assertThat(first.fencingToken()).isEqualTo(ahead + 1);
            }
            try (Lease second = store.lock("ahead").tryAcquire().orElseThrow()) {
                assertThat(second.fencingToken()).isEqualTo(ahead + 2);
            }

            long clockMicros = probe.serverClockMicros();
            try (Lease fresh = store.lock("fresh").tryAcquire().orElseThrow()) {
                assertThat(fresh.fencingToken()).isGreaterThanOrEqualTo(clockMicros).isLessThan(ahead);
            }
            probe.raw().set("distlock:{garbled}:fence", "not a number");
            try (Lease garbled = store.lock("garbled").tryAcquire().orElseThrow()) {
                assertThat(garbled.fencingToken()).isGreaterThanOrEqualTo(clockMicros).isLessThan(ahead);
            }
        }
    }

    /**
     * The grant, the call every lock makes, answers one integer; a refusal that queued its client answers two: the
     * wait, and how many clients the queue holds (which spreads the waiter's own re-checks, {@link QueueCrowd}); one
     * that queued nobody (Redlock) answers the wait alone.
     */
    @Test
    void theAcquireScriptAnswersWithOneIntegerTheFenceWhenGrantedAndMinusTwoMinusTheWaitWhenHeld() {
        try (RedisProbe probe = new RedisProbe(server.port())) {
            LockCalls calls = new LockCalls(new RedisKeys("distlock:"), false, Duration.ofSeconds(60),
                    Duration.ofSeconds(1));
            long clockMicros = probe.serverClockMicros();
            Object granted = RedisScripts.ACQUIRE.run(probe.raw(),
                    calls.acquire("reply", "a|me", Duration.ofSeconds(10)));
            assertThat(granted).isInstanceOf(Long.class);
            assertThat(LockCalls.grantedFence((Long) granted)).isGreaterThanOrEqualTo(clockMicros);

            Object held = RedisScripts.ACQUIRE.run(probe.raw(), calls.acquire("reply", "b|me", Duration.ofSeconds(10)));
            assertThat(held).isInstanceOf(List.class);
            assertThat(LockCalls.grantedFence(LockCalls.acquireAnswer(held))).isZero();
            assertThat(LockCalls.retryMillis(LockCalls.acquireAnswer(held))).isBetween(9_000L, 10_000L); // TTL
            assertThat(LockCalls.queuedClients(held)).as("clients queued: this one").isEqualTo(1);
            probe.raw().zadd(new RedisKeys("distlock:").waiting("reply"), clockMicros / 1000 + 20_000, "another-client");
            probe.raw().zadd(new RedisKeys("distlock:").waiting("reply"), clockMicros / 1000 - 60_000, "left-client");

            probe.raw().persist("distlock:{reply}"); // a holder without a TTL (an operator's PERSIST)
            Object unknown = RedisScripts.ACQUIRE.run(probe.raw(),
                    calls.acquire("reply", "b|me", Duration.ofSeconds(10)));
            assertThat(LockCalls.grantedFence(LockCalls.acquireAnswer(unknown))).isZero();
            assertThat(LockCalls.retryMillis(LockCalls.acquireAnswer(unknown))).isEqualTo(-1);
            assertThat(LockCalls.queuedClients(unknown)).as("clients queued: this one and another (not the"
                    + " expired place)").isEqualTo(2);

            LockCalls queueingNobody = new LockCalls(new RedisKeys("distlock:"), false, Duration.ofSeconds(60), null);
            Object polled = RedisScripts.ACQUIRE.run(probe.raw(),
                    queueingNobody.acquire("reply", "c|me", Duration.ofSeconds(10)));
            assertThat(polled).as("a refusal that queued nobody").isEqualTo(-1L);
            assertThat(LockCalls.queuedClients(polled)).isZero();

            Object again = RedisScripts.ACQUIRE.run(probe.raw(),
                    calls.acquire("reply", "a|me", Duration.ofSeconds(10)));
            assertThat(again).as("the holder's re-sent acquire gets its own fence back").isEqualTo(granted);
        }
    }

    @Test
    void aCounterThatHoldsNoFencingTokenCountsAsNoneForAGrantAReSentGrantAndAHandOver() {
        try (RedisProbe probe = new RedisProbe(server.port())) {
            LockCalls calls = new LockCalls(new RedisKeys("distlock:"), false, Duration.ofSeconds(60),
                    Duration.ofSeconds(1));
            Duration lease = Duration.ofSeconds(10);
            long clockMicros = probe.serverClockMicros();
            long below2To53 = 1L << 53;
            // numbers Lua's tonumber reads but no grant ever wrote: not a number, infinite, past 2^53, below 1
            for (String bad : java.util.List.of("nan", "inf", "-inf", "1e19", "-3", "0")) {
                String name = "bad-counter-" + bad;
                probe.raw().set("distlock:{" + name + "}:fence", bad);
                Object granted = RedisScripts.ACQUIRE.run(probe.raw(), calls.acquire(name, "a|me", lease));
                assertThat(LockCalls.grantedFence((Long) granted)).as("grant over counter '%s'", bad)
                        .isGreaterThanOrEqualTo(clockMicros).isLessThan(below2To53);

                probe.raw().set("distlock:{" + name + "}:fence", bad); // the counter spoiled again under the holder
                Object again = RedisScripts.ACQUIRE.run(probe.raw(), calls.acquire(name, "a|me", lease));
                assertThat(LockCalls.grantedFence((Long) again)).as("re-sent grant over counter '%s'", bad)
                        .isGreaterThanOrEqualTo(clockMicros).isLessThan(below2To53);

                LockCalls.Call handOver = new LockCalls.Call(java.util.List.of("distlock:{" + name + "}",
                        "distlock:{" + name + "}:fence", "distlock:{" + name + "}:waiting"),
                        java.util.List.of("a|me", "b|me", "10000"));
                probe.raw().set("distlock:{" + name + "}:fence", bad);
                java.util.List<?> handed = (java.util.List<?>) RedisScripts.HAND_OVER.run(probe.raw(), handOver);
                assertThat((Long) handed.get(0)).as("hand-over over counter '%s'", bad)
                        .isGreaterThanOrEqualTo(clockMicros).isLessThan(below2To53);
                probe.raw().set("distlock:{" + name + "}:fence", bad);
                java.util.List<?> resent = (java.util.List<?>) RedisScripts.HAND_OVER.run(probe.raw(), handOver);
                assertThat((Long) resent.get(0)).as("re-sent hand-over over counter '%s'", bad)
                        .isGreaterThanOrEqualTo(clockMicros).isLessThan(below2To53);
            }
        }
    }

    @Test
    void theAdminViewListsAHolderWhoseCounterHoldsNoFencingTokenWithTokenZero() {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            for (String bad : java.util.List.of("not a number", "nan", "1e19", "-3", "99999999999999999999")) {
                String name = "listed-" + bad.replace(' ', '-');
                try (Lease held = store.lock(name).tryAcquire().orElseThrow()) {
                    probe.raw().set("distlock:{" + name + "}:fence", bad); // an operator spoils the counter
                    assertThat(store.admin().list(name, 5)).as("listing a holder over counter '%s'", bad)
                            .singleElement().satisfies(info -> assertThat(info.fencingToken()).isZero());
                }
            }
            try (Lease held = store.lock("listed-hash").tryAcquire().orElseThrow()) {
                probe.raw().del("distlock:{listed-hash}:fence");
                probe.raw().hset("distlock:{listed-hash}:fence", "a", "1"); // a counter of another type
                assertThat(store.admin().list("listed-hash", 5)).as("listing a holder over a hash counter")
                        .singleElement().satisfies(info -> assertThat(info.fencingToken()).isZero());
            }
        }
    }

    @Test
    void aLockKeyOfAnotherTypeIsLeftOutOfTheAdminViewInsteadOfFailingIt() {
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s"))) {
            Lease spoiled = store.lock("typed-list-b").tryAcquire().orElseThrow();
            try (Lease held = store.lock("typed-list-a").tryAcquire().orElseThrow()) {
                probe.raw().del("distlock:{typed-list-b}");
                probe.raw().hset("distlock:{typed-list-b}", "spoiled by", "an operator"); // a lock key of another type
                probe.raw().pexpire("distlock:{typed-list-b}", 60_000);
                assertThat(store.admin().list("typed-list-", 5)).as("listing beside a lock key of another type")
                        .extracting(io.distlock.LockInfo::name).containsExactly("typed-list-a");
            }
            org.assertj.core.api.Assertions.assertThatThrownBy(spoiled::release).as("releasing the spoiled lease")
                    .isInstanceOf(io.distlock.LockException.class)
                    .isNotInstanceOf(io.distlock.StoreUnavailableException.class);
        }
    }

    @Test
    void aGuardMarkerOfAnotherTypeOpensAWindowInsteadOfFailingEveryAcquire() {
        String prefix = "typed-guard-" + System.nanoTime() + ":";
        try (RedisProbe probe = new RedisProbe(server.port());
                LockStore store = LockStore.open(server.uri("timeout=1s&restartGuard=true&maxLeaseTime=1s&keyPrefix="
                        + prefix))) {
            probe.raw().hset(prefix + "guard", "spoiled by", "an operator");
            probe.raw().pexpire(prefix + "guard", 60_000);
            assertThat(store.lock("g", io.distlock.LockOptions.defaults()
                    .withLeaseTime(java.time.Duration.ofSeconds(1)))
                    .tryAcquire()).as("the first acquire over a guard marker of another type: a window opens")
                    .isEmpty();
            assertThat(probe.raw().type(prefix + "guard")).isEqualTo("string");
        }
    }
}
