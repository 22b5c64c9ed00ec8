package io.distlock.tck;

import io.distlock.Features;
import io.distlock.LeaseModel;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;

/** Constants and small helpers shared by the rules: lease times, margins and capability assumptions. */
final class Tck {

    /** The lease time of rules that wait for expiry: short, so the kit runs fast, long enough for a loaded machine. */
    static final Duration SHORT_LEASE = Duration.ofMillis(1500);
    /** How long "at once" may take on a loaded 2-core machine with a networked store. */
    static final Duration PROMPTLY = Duration.ofSeconds(3);
    /** The longest any single step of a rule may take before the kit calls it a hang. */
    static final Duration HANG = Duration.ofSeconds(60);

    private Tck() {
    }

    /** Short lease, no renewal: the lease simply runs out. */
    static LockOptions expiring() {
        return LockOptions.defaults().withLeaseTime(SHORT_LEASE).withAutoRenew(false);
    }

    /** Short lease, renewed in the background. */
    static LockOptions renewed() {
        return LockOptions.defaults().withLeaseTime(SHORT_LEASE).withAutoRenew(true);
    }

    static void assumeTimeBound(TckContext tck) {
        Assumptions.assumeTrue(tck.features().leaseModel() == LeaseModel.TIME,
                "skipped: leases of this store are bound to the client's session, not to a lease time");
    }

    static void assumeSeparateJvms(TckContext tck) {
        Assumptions.assumeTrue(tck.capabilities().separateJvmClients() && tck.storeUri() != null,
                "skipped: this store cannot be reached from another JVM (no storeUri)");
    }

    /** A client of the store under test; skips the rule if the store has no semaphores yet. */
    static LockStore semaphoreClient(TckContext tck) {
        LockStore client = tck.client();
        Assumptions.assumeTrue(client.features().semaphores(), "skipped: store " + client + " has no semaphores");
        return client;
    }

    static void assumeForceRelease(TckContext tck) {
        Assumptions.assumeTrue(tck.features().admin(),
                "skipped: this store states no admin view to force-release a lock behind its holder's back");
    }

    /** How long a dead holder's lock may take to free: lease time or session timeout, plus the declared margin. */
    static Duration deadHolderBound(TckContext tck, Duration lease) {
        Features features = tck.features();
        Duration base = features.leaseModel() == LeaseModel.SESSION
                ? tck.capabilities().sessionTimeout(features) : lease;
        return base.plus(expiryMargin(tck)).plus(PROMPTLY);
    }

    /** Extra time, beyond its lease time or session timeout, a dead holder's lock may take to free. */
    static Duration expiryMargin(TckContext tck) {
        return tck.capabilities().expiryMargin(tck.features());
    }

    static Duration elapsedSince(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }
}
