package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.DistributedSemaphore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * §21 Two stores with any two namespaces on one server never touch each other's keys: for each pair of namespaces
 * the kit builds (the base and the base followed by each suffix the store appends, both ways round, and a few
 * more), a holder of a lock and of a permit in one store keeps them, held and valid, while clients of the other
 * store take, wait for (refused, leaving whatever a waiter leaves) and release the same names. Needs the harness's
 * {@link TckHarness#prefixedStores()}.
 */
public interface PrefixRules extends TckSupport {

    /** How long the other store's refused waiter waits: long enough to leave what a waiter leaves. */
    Duration REFUSED_WAIT = Duration.ofMillis(100);

    @Test
    @DisplayName("§21.1 two stores whose namespaces extend one another never touch each other's locks or permits")
    default void rule_21_1_storesWithAnyTwoNamespacesNeverTouchEachOthersKeys() throws Exception {
        PrefixedStores stores = tck().prefixedStores();
        Assumptions.assumeTrue(stores != null, "skipped: the store has no namespace option (no prefixedStores())");
        Set<String> suffixes = new LinkedHashSet<>(stores.appendedSuffixes());
        suffixes.addAll(List.of(":", "x", "x:"));
        List<String> problems = new ArrayList<>();
        int pair = 0;
        for (String suffix : suffixes) {
            String base = stores.base() + "n" + pair++;
            problems.addAll(checked(stores, base + suffix, base, "pair " + pair + " longer held"));
            base = stores.base() + "n" + pair++;
            problems.addAll(checked(stores, base, base + suffix, "pair " + pair + " shorter held"));
        }
        assertThat(problems).as("what one store did to the other's holders").isEmpty();
    }

    /**
     * {@link #keepsItsHolds}, an exception of either store's one more problem of the pair; a refusal to open the
     * longer namespace (an {@code IllegalArgumentException} naming it) is no problem: that store touches nothing.
     */
    private List<String> checked(PrefixedStores stores, String held, String busy, String pair) throws Exception {
        try {
            return keepsItsHolds(stores, held, busy, pair);
        } catch (io.distlock.LockException e) {
            return List.of("stores '" + held + "' and '" + busy + "': " + e);
        } catch (IllegalArgumentException e) {
            // a store may refuse a namespace that is one its store derives from another (an SQL lock table named
            // like another's permit table): refused, it touches nothing. Only the longer one, naming it, and the
            // shorter one must still open.
            String longer = held.length() > busy.length() ? held : busy;
            String shorter = longer.equals(held) ? busy : held;
            stores.open(shorter).close();
            if (String.valueOf(e.getMessage()).contains(longer)) {
                return List.of();
            }
            return List.of("stores '" + held + "' and '" + busy + "': refused without naming '" + longer + "': " + e);
        }
    }

    /**
     * A client of {@code held} holds a lock and a permit of one name; clients of {@code busy} take, wait for and
     * release the same name; then {@code held}'s holds must be intact.
     */
    private List<String> keepsItsHolds(PrefixedStores stores, String held, String busy, String pair)
            throws Exception {
        List<String> problems = new ArrayList<>();
        String name = tck().name(pair);
        try (LockStore holder = stores.open(held); LockStore otherHolder = stores.open(busy);
                LockStore otherWaiter = stores.open(busy); LockStore checker = stores.open(held)) {
            Lease lock = holder.lock(name).tryAcquire().orElseThrow();
            Lease permit = holder.semaphore(name, 1).tryAcquire().orElseThrow();

            Optional<Lease> otherLock = otherHolder.lock(name).tryAcquire();
            Optional<Lease> otherPermit = otherHolder.semaphore(name, 1).tryAcquire();
            if (otherLock.isEmpty() || otherPermit.isEmpty()) {
                problems.add("store '" + busy + "' was refused '" + name + "' held only in store '" + held + "'");
            }
            // a refused waiter of the other store leaves whatever its store leaves for waiters
            otherWaiter.lock(name).tryAcquire(REFUSED_WAIT).ifPresent(Lease::release);
            otherWaiter.semaphore(name, 1).tryAcquire(REFUSED_WAIT).ifPresent(Lease::release);
            otherLock.ifPresent(Lease::release);
            otherPermit.ifPresent(Lease::release);

            if (!lock.isValid() || !permit.isValid()) {
                problems.add("store '" + held + "' lost its holds of '" + name + "' to store '" + busy + "'");
            }
            if (checker.lock(name).tryAcquire().map(l -> {
                l.release();
                return true;
            }).orElse(false)) {
                problems.add("store '" + held + "' granted lock '" + name + "' twice after store '" + busy
                        + "' worked on it");
            }
            DistributedSemaphore sem = checker.semaphore(name, 1);
            if (sem.tryAcquire().map(l -> {
                l.release();
                return true;
            }).orElse(false)) {
                problems.add("store '" + held + "' granted a second permit of '" + name + "' (of 1) after store '"
                        + busy + "' worked on it");
            }
            try {
                lock.release();
                permit.release();
            } catch (RuntimeException e) {
                problems.add("store '" + held + "' could not release its holds of '" + name + "' after store '"
                        + busy + "' worked on it: " + e);
            }
        }
        return problems;
    }
}
