package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockInfo;
import io.distlock.LockLostException;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * §25 An operator's force-release breaks only the holder the operator saw, and a holder that was broken gets no
 * nested lease of a lock now held by another.
 */
public interface ForceReleaseRules extends TckSupport {

    @Test
    @DisplayName("§25.1 force-release under the listed fencing token releases that holder; another client takes the "
            + "lock")
    default void rule_25_1_forceReleaseOfTheListedHolderReleasesIt() throws InterruptedException {
        Tck.assumeForceRelease(tck());
        LockStore holder = tck().client();
        LockStore operator = tck().client();
        String name = tck().name("listed");
        Lease lease = holder.lock(name).acquire();
        LockInfo seen = operator.admin().list(name, 10).stream().filter(l -> l.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("the held lock is listed"));
        assertThat(operator.admin().forceRelease(name, seen.fencingToken())).isTrue();
        Lease next = tck().client().lock(name).tryAcquire(Tck.PROMPTLY)
                .orElseThrow(() -> new AssertionError("the force-released lock is free"));
        assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
        assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
        next.release();
    }

    @Test
    @DisplayName("§25.2 force-release under an earlier holder's token is refused: the lock changed hands and its new "
            + "holder keeps it")
    default void rule_25_2_forceReleaseOfAnEarlierHolderIsRefused() throws InterruptedException {
        Tck.assumeForceRelease(tck());
        LockStore first = tck().client();
        LockStore second = tck().client();
        LockStore operator = tck().client();
        String name = tck().name("changed hands");
        Lease earlier = first.lock(name).acquire();
        long seen = earlier.fencingToken();
        earlier.release();
        assertThat(operator.admin().forceRelease(name, seen)).as("a free lock").isFalse();
        Lease now = second.lock(name).acquire();
        assertThat(operator.admin().forceRelease(name, seen)).as("held under another token").isFalse();
        assertThat(operator.lock(name).tryAcquire()).as("the new holder keeps the lock").isEmpty();
        assertThat(now.isValid()).isTrue();
        now.release();
    }

    @Test
    @DisplayName("§25.3 a nested acquisition after the lock was force-released and taken by another client is not "
            + "granted")
    default void rule_25_3_nestedAcquisitionAfterATakeoverIsNotGranted() throws InterruptedException {
        Tck.assumeForceRelease(tck());
        LockStore nodeA = tck().client();
        LockStore nodeB = tck().client();
        String name = tck().name("taken over");
        Lease outer = nodeA.lock(name).acquire();
        assertThat(tck().client().admin().forceRelease(name)).isTrue();
        Lease taken = nodeB.lock(name).tryAcquire(Tck.PROMPTLY)
                .orElseThrow(() -> new AssertionError("the force-released lock is free"));
        assertThat(nodeA.lock(name).tryAcquire()).as("node A's nested tryAcquire while node B holds the lock")
                .isEmpty();
        assertThatThrownBy(outer::release).isInstanceOf(LockLostException.class);
        assertThat(taken.isValid()).as("node B's lease is untouched").isTrue();
        taken.release();
    }

    @Test
    @DisplayName("§25.4 force-releases under listed tokens while the lock changes hands break exactly the holders they "
            + "name")
    default void rule_25_4_forceReleasesRacingHandOversBreakOnlyTheNamedHolders() throws Exception {
        Tck.assumeForceRelease(tck());
        String name = tck().name("racing hand-overs");
        int contenders = 3;
        long start = System.nanoTime();
        Map<Long, Boolean> lostAtRelease = new ConcurrentHashMap<>(); // every granted token: did its release throw?
        // at least RACING_FOR and MIN_GRANTS hand-overs (a loaded machine makes few), at most until HANG
        BooleanSupplier racing = () -> Tck.elapsedSince(start).compareTo(RACING_FOR) < 0
                || lostAtRelease.size() < MIN_GRANTS && Tck.elapsedSince(start).compareTo(Tck.HANG) < 0;
        LockStore operator = tck().client();
        Set<Long> forced = ConcurrentHashMap.newKeySet(); // tokens a force-release answered true for
        ExecutorService pool = Executors.newFixedThreadPool(contenders + 1);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < contenders; i++) {
                LockStore client = tck().client();
                running.add(pool.submit(() -> {
                    while (racing.getAsBoolean()) {
                        Optional<Lease> granted = client.lock(name).tryAcquire(Tck.PROMPTLY);
                        if (granted.isEmpty()) {
                            continue; // the queue moves on at the next hand-over or force-release
                        }
                        Lease lease = granted.get();
                        boolean lost = false;
                        try {
                            lease.release();
                        } catch (LockLostException e) {
                            lost = true;
                        }
                        assertThat(lostAtRelease.put(lease.fencingToken(), lost)).as("token %d granted twice",
                                lease.fencingToken()).isNull();
                    }
                    return null;
                }));
            }
            running.add(pool.submit(() -> {
                while (racing.getAsBoolean()) {
                    for (LockInfo info : operator.admin().list(name, 10)) {
                        if (info.name().equals(name) && operator.admin().forceRelease(name, info.fencingToken())) {
                            forced.add(info.fencingToken());
                        }
                    }
                }
                return null;
            }));
            for (Future<?> future : running) {
                future.get(Tck.HANG.plus(Tck.HANG).toMillis(), TimeUnit.MILLISECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(lostAtRelease).as("grants while racing for %s", Tck.elapsedSince(start))
                .hasSizeGreaterThanOrEqualTo(MIN_GRANTS);
        Set<Long> brokenUnnamed = new TreeSet<>();
        Set<Long> namedNotBroken = new TreeSet<>(forced);
        lostAtRelease.forEach((token, lost) -> {
            if (lost && !forced.contains(token)) {
                brokenUnnamed.add(token);
            }
            if (lost) {
                namedNotBroken.remove(token);
            }
        });
        Set<Long> releasedCleanly = new TreeSet<>(namedNotBroken);
        releasedCleanly.retainAll(lostAtRelease.keySet());
        Set<Long> neverHeld = new TreeSet<>(namedNotBroken);
        neverHeld.removeAll(lostAtRelease.keySet());
        // a grant broken before its client heard of it (a multi-step grant such as Redlock's, undone by the client
        // once its majority went) was a holder in the store that nobody believed in: breaking it is no lie
        assertThat(releasedCleanly).as("tokens a force-release answered true for whose holder released cleanly "
                + "(%d grants, %d force-released, %d of them before their client was told)", lostAtRelease.size(),
                forced.size(), neverHeld.size()).isEmpty();
        assertThat(brokenUnnamed).as("holders that lost the lock though no force-release named their token (%d "
                + "grants, %d force-released)", lostAtRelease.size(), forced.size()).isEmpty();
    }

    /** How long §25.4 races force-releases against hand-overs, at least. */
    Duration RACING_FOR = Duration.ofSeconds(2);
    /** How many grants §25.4 waits for, at least (within {@link Tck#HANG}). */
    int MIN_GRANTS = 30;
}
