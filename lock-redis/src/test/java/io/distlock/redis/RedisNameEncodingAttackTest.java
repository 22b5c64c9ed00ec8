package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.distlock.Lease;
import io.distlock.LockInfo;
import io.distlock.LockStore;
import io.distlock.spi.Grant;
import io.distlock.spi.Renewal;
import io.distlock.spi.Wait;
import io.distlock.tck.fixture.BackendStores;
import io.distlock.tck.fixture.StoreServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Attacks (review r9) on the Redis store's key encoding (a lease keeps its stored value's bytes; each call encodes the
 * name's keys, an ASCII name straight into them): names with hash-tag braces, non-ASCII text, surrogate pairs, the
 * longest names, names spelling another name's key suffix, names differing only in their code points. Each name is
 * its own lock, exclusive, with growing tokens, its own admin entry and force-release, woken on release, renewed in
 * a batch; a lock and a semaphore of one name stay apart.
 */
class RedisNameEncodingAttackTest {

    private static final String URI = StoreServers.redis();
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration BOUND = Duration.ofSeconds(10);

    private final String prefix = "enc-" + UUID.randomUUID().toString().substring(0, 8) + ":";
    private final List<LockStore> stores = new ArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
        stores.forEach(LockStore::close);
    }

    private LockStore store() {
        LockStore store = BackendStores.open(URI + "?keyPrefix=" + prefix + "&timeout=5s");
        stores.add(store);
        return store;
    }

    /** Names whose keys take every path of the encoding: ASCII, non-ASCII, own hash tag or not. */
    static List<String> oddNames() {
        return List.of("{", "}", "{x}", "a{x}b", "}{", "{}", "x}:fence", "x:fence", "x:waiting", "x}", "x",
                "zürich", "\uD83D\uDE00", "e\u0301", "\u00E9", "nul\u0000byte", "tab\there", "*?[glob]\\",
                "released:x", "wake:x", "guard", "a".repeat(RedisBackend.MAX_NAME_LENGTH),
                "\uD83D\uDE00".repeat(RedisBackend.MAX_NAME_LENGTH / 2),
                "}".repeat(RedisBackend.MAX_NAME_LENGTH), "\u00FC".repeat(RedisBackend.MAX_NAME_LENGTH));
    }

    @Test
    void everyOddNameIsItsOwnExclusiveLockWithGrowingTokensAnAdminEntryAndAForceRelease() throws Exception {
        LockStore a = store();
        LockStore b = store();
        List<String> names = oddNames();
        List<Lease> held = new ArrayList<>();
        for (String name : names) {
            Lease lease = a.lock(name).acquire();
            held.add(lease);
            assertThat(b.lock(name).tryAcquire()).as("another client's lock of %s", show(name)).isEmpty();
        }
        List<String> listed = a.admin().list("", 1000).stream().map(LockInfo::name).toList();
        assertThat(listed).as("names the admin view lists").containsExactlyInAnyOrderElementsOf(names);
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            Lease first = held.get(i);
            assertThat(first.extend(LEASE)).as("extend of %s", show(name)).isTrue();
            assertThat(first.isValid()).as("lease of %s after every other name was taken", show(name)).isTrue();
            Lease permit = a.semaphore(name, 1).tryAcquire().orElseThrow(); // the semaphore of the name stays apart
            first.release();
            Lease second = b.lock(name).tryAcquire(BOUND).orElseThrow();
            assertThat(second.fencingToken()).as("token of %s", show(name)).isGreaterThan(first.fencingToken());
            assertThat(b.admin().forceRelease(name)).as("force-release of %s", show(name)).isTrue();
            assertThat(second.extend(LEASE)).as("extend after the force-release of %s", show(name)).isFalse();
            assertThat(permit.isValid()).as("the permit of %s after its lock's force-release", show(name)).isTrue();
            permit.release();
            Lease third = a.lock(name).tryAcquire().orElseThrow();
            assertThat(third.fencingToken()).as("token of %s", show(name)).isGreaterThan(second.fencingToken());
            third.release();
        }
    }

    @Test
    void aWaiterOfAnOddNameIsWokenByItsRelease() throws Exception {
        LockStore a = store();
        LockStore b = store();
        for (String name : List.of("zürich", "\uD83D\uDE00", "a{x}b", "}{", "x}:fence")) {
            Lease lease = a.lock(name, io.distlock.LockOptions.defaults().withLeaseTime(LEASE)).acquire();
            Future<Optional<Lease>> waiter = pool.submit(() -> b.lock(name).tryAcquire(BOUND));
            String waiting = new RedisKeys(prefix).waiting(name);
            try (RedisProbe probe = new RedisProbe(java.net.URI.create(URI).getPort())) {
                Awaitility.await().atMost(BOUND).until(() -> probe.raw().exists(waiting)); // refused, and waits
            }
            lease.release();
            long start = System.nanoTime();
            Optional<Lease> got = waiter.get(BOUND.toSeconds() + 5, TimeUnit.SECONDS);
            assertThat(got).as("the waiter of %s, with the holder's lease %s", show(name), LEASE).isPresent();
            got.get().release();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("wake-up of %s", show(name))
                    .isLessThan(BOUND);
        }
    }

    /**
     * Names that Java tells apart but whose UTF-8 encoding does not: {@link String#getBytes} turns an unpaired
     * surrogate into {@code '?'}, so "a\uD800" and "a?" shared every key (DEFECTS C30): two holders of different
     * names excluded each other, and one's force-release freed the other. Such a name is refused now, as a lock and
     * as a semaphore; a name that is accepted must be a lock of its own.
     */
    @Test
    void namesThatDifferOnlyInAnUnpairedSurrogateAreNotOneLock() throws Exception {
        LockStore a = store();
        LockStore b = store();
        for (String[] pair : List.of(new String[] {"a\uD800", "a?"}, new String[] {"\uDC00", "?"},
                new String[] {"x}\uD800", "x}?"}, new String[] {"\uD83D\uD83D", "??"})) {
            Throwable refused = catchThrowable(() -> a.lock(pair[0]));
            if (refused != null) {
                assertThat(refused).as("refusal of %s", show(pair[0])).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("unpaired surrogate");
                assertThatThrownBy(() -> a.semaphore(pair[0], 2)).isInstanceOf(IllegalArgumentException.class);
                continue;
            }
            Lease first = a.lock(pair[0]).acquire();
            Optional<Lease> second = b.lock(pair[1]).tryAcquire();
            assertThat(second).as("lock %s while another client holds %s", show(pair[1]), show(pair[0]))
                    .isPresent();
            assertThat(b.admin().forceRelease(pair[1])).isTrue();
            assertThat(first.extend(LEASE)).as("%s after a force-release of %s", show(pair[0]), show(pair[1]))
                    .isTrue();
            first.release();
        }
    }

    @Test
    void tenThousandLeasesOfOddNamesRenewInOneCallAndReleaseByTheirKeptBytes() throws Exception {
        LockStore store = store();
        RedisBackend backend = RedisProbe.backendOf(store);
        List<Renewal> renewals = new ArrayList<>();
        String[] forms = {"n-", "ü-", "}-", "\uD83D\uDE00-", "{t}-"};
        for (int i = 0; i < 10_000; i++) {
            Grant grant = backend.acquire(forms[i % forms.length] + i, Duration.ofSeconds(20), Wait.none());
            assertThat(grant).isNotNull();
            renewals.add(new Renewal(grant, Duration.ofSeconds(60)));
        }
        Set<Grant> lost = backend.renew(renewals);
        assertThat(lost).as("leases the renewal found gone").isEmpty();
        int notReleased = 0;
        for (Renewal r : renewals) {
            if (!backend.release(r.grant())) {
                notReleased++;
            }
        }
        assertThat(notReleased).as("leases whose release found them gone").isZero();
        assertThat(store.admin().list("", 10)).as("names left").isEmpty();
    }

    /** A name as code points, so a message shows unpaired surrogates and invisible characters. */
    static String show(String name) {
        String head = name.length() > 12 ? name.substring(0, 12) : name;
        StringBuilder b = new StringBuilder("'");
        head.chars().forEach(c -> b.append(c >= 0x20 && c < 0x7f ? String.valueOf((char) c)
                : String.format("\\u%04X", c)));
        return b.append(name.length() > 12 ? "...'(" + name.length() + ")" : "'").toString();
    }
}
