package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LeaseModel;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * §26 Names used once: per-entity locks (one name per order) are normal, so a name nobody uses any more leaves
 * nothing in the store after its lease plus the store's grace, and a name used again after that still gets a larger
 * token, also when its counter had run ahead of the store's clock. Needs the harness's
 * {@link TckHarness#nameLeftovers()}; skipped without it.
 */
public interface UsedOnceRules extends TckSupport {

    /** How many lock names are used once. */
    int LOCK_NAMES = 200;
    /** How many semaphore names are used once. */
    int SEMAPHORE_NAMES = 20;
    /**
     * The lease of the names used once: short, so the rule runs fast. Leases released by the rule are renewed meanwhile
     * (a loaded machine may take longer than the lease between a grant and its release); the ones left to expire are
     * not.
     */
    Duration LEASE = Tck.SHORT_LEASE;

    @Test
    @DisplayName("§26.1 names used once leave nothing after lease + grace, and a name used again gets a larger token")
    default void rule_26_1_namesUsedOnceLeaveNothing() throws Exception {
        NameLeftovers leftovers = leftovers();
        String prefix = tck().name("once:");
        LockOptions options = LockOptions.defaults().withLeaseTime(LEASE).withAutoRenew(true);
        LockOptions expiring = options.withAutoRenew(false);
        LockStore client = tck().client();
        LockStore other = tck().client();
        LockStore abandoning = tck().client();
        long[] tokens = new long[LOCK_NAMES];
        for (int i = 0; i < LOCK_NAMES; i++) {
            String name = prefix + "lock:" + i;
            Lease lease = (i == 1 ? abandoning : client).lock(name, i == 1 ? expiring : options).tryAcquire()
                    .orElseThrow();
            tokens[i] = lease.fencingToken();
            if (i == 0) {
                // a refused waiter leaves what a waiter leaves
                assertThat(other.lock(name, options).tryAcquire(Duration.ofMillis(50))).isEmpty();
            }
            if (i == 1) {
                continue; // left to expire, never released
            }
            lease.release();
        }
        boolean semaphores = semaphoresUsedOnce(client, other, abandoning, prefix);
        assertThat(leftovers.count(prefix)).as("state kept right after use: the hook sees the names").isPositive();
        if (tck().features().leaseModel() == LeaseModel.SESSION) {
            // a lease time means nothing on a session-bound store: what is left to expire is left by a client whose
            // session ends
            abandoning.close();
        }

        Duration bound = LEASE.plus(leftovers.grace()).plus(Tck.PROMPTLY);
        Awaitility.await().atMost(bound).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(leftovers.count(prefix))
                        .as("keys, rows or nodes left of %d lock names%s used once, %s after their lease + grace",
                                LOCK_NAMES, semaphores ? " and " + SEMAPHORE_NAMES + " semaphore names" : "", bound)
                        .isZero());

        for (int i : new int[] {0, 1, LOCK_NAMES - 1}) {
            try (Lease again = other.lock(prefix + "lock:" + i, options).tryAcquire().orElseThrow()) {
                assertThat(again.fencingToken()).as("token of lock '%s' used again after its state was reclaimed",
                        prefix + "lock:" + i).isGreaterThan(tokens[i]);
            }
        }
    }

    @Test
    @DisplayName("§26.2 a counter ahead of the store's clock is kept until the clock has passed it")
    default void rule_26_2_aCounterAheadOfTheClockIsKeptUntilTheClockPassedIt() throws Exception {
        NameLeftovers leftovers = leftovers();
        String name = tck().name("ahead");
        LockOptions options = LockOptions.defaults().withLeaseTime(LEASE).withAutoRenew(false);
        LockStore client = tck().client();
        client.lock(name, options).tryAcquire().orElseThrow().release();
        // ahead by more than lease + grace + a margin: a store that reclaims after lease + grace regardless of the
        // counter would start the next name's tokens at its clock, below the token granted from the counter
        Duration ahead = LEASE.plus(leftovers.grace()).plus(Duration.ofSeconds(2));
        long pushed = leftovers.pushLockCounterAhead(name, ahead);
        long aheadToken;
        try (Lease lease = client.lock(name, options).tryAcquire().orElseThrow()) {
            aheadToken = lease.fencingToken();
        }
        assertThat(aheadToken).as("token granted from a counter at %d", pushed).isGreaterThan(pushed);

        Duration bound = ahead.plus(LEASE).plus(leftovers.grace()).plus(Tck.PROMPTLY);
        Awaitility.await().atMost(bound).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(leftovers.count(name)).as("state left of '%s'", name).isZero());
        try (Lease lease = tck().client().lock(name, options).tryAcquire().orElseThrow()) {
            assertThat(lease.fencingToken()).as("token of '%s' after its counter, ahead of the clock, was reclaimed",
                    name).isGreaterThan(aheadToken);
        }
    }

    @Test
    @DisplayName("§26.3 a client that closes after waiting for a name leaves nothing of it beyond what its holder "
            + "keeps")
    default void rule_26_3_aClosedWaiterLeavesNothingOfTheName() throws Exception {
        NameLeftovers leftovers = leftovers();
        String name = tck().name("closed-waiter");
        LockOptions options = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(30)).withAutoRenew(false);
        LockStore holder = tck().client();
        LockStore waiter = tck().client();
        try (Lease held = holder.lock(name, options).tryAcquire().orElseThrow()) {
            long holderKeeps = leftovers.count(name);
            // a refused waiter leaves what a waiter leaves (on Redis its place in the name's waiter queue), which a
            // release would otherwise wake instead of a client still there, until the place expires
            assertThat(waiter.lock(name, options).tryAcquire(Duration.ofMillis(50))).isEmpty();
            waiter.close();
            Awaitility.await().atMost(Tck.PROMPTLY).pollInterval(Duration.ofMillis(100))
                    .untilAsserted(() -> assertThat(leftovers.count(name))
                            .as("keys, rows or nodes of '%s' after its waiter closed (its holder alone keeps %d)",
                                    name, holderKeeps).isEqualTo(holderKeeps));
            assertThat(held.fencingToken()).isPositive();
        }
    }

    private NameLeftovers leftovers() {
        NameLeftovers leftovers = tck().nameLeftovers();
        Assumptions.assumeTrue(leftovers != null,
                "skipped: the store's kit subclass supplies no nameLeftovers() (no count of a name's leftover state)");
        return leftovers;
    }

    /** Semaphores of 2 used once each (one refused waiter); false if the store has no semaphores. */
    private boolean semaphoresUsedOnce(LockStore client, LockStore other, LockStore abandoning, String prefix)
            throws Exception {
        if (!client.features().semaphores()) {
            return false;
        }
        LockOptions renewed = LockOptions.defaults().withLeaseTime(LEASE).withAutoRenew(true);
        LockOptions expiring = renewed.withAutoRenew(false);
        for (int i = 0; i < SEMAPHORE_NAMES; i++) {
            String name = prefix + "sem:" + i;
            LockOptions options = i == 1 ? expiring : renewed;
            LockStore holder = i == 1 ? abandoning : client;
            List<Lease> held = new ArrayList<>();
            held.add(holder.semaphore(name, 2, options).tryAcquire().orElseThrow());
            held.add(holder.semaphore(name, 2, options).tryAcquire().orElseThrow());
            if (i == 0) {
                assertThat(other.semaphore(name, 2, options).tryAcquire(Duration.ofMillis(50))).isEmpty();
            }
            if (i == 1) {
                continue; // left to expire
            }
            for (Lease lease : held) {
                lease.release();
            }
        }
        return true;
    }
}
