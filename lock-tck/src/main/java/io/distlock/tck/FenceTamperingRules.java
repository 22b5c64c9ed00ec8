package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.tck.FenceStateTampering.ForeignValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * §19 Tampered fence state: an operator or a cleanup job deletes, or overwrites with a value the store never writes,
 * what the store keeps to make a name's tokens grow. The next grant of the name gets a token greater than every
 * token granted before, or fails at once with a {@link io.distlock.LockException} naming the name; never a token at
 * or below an earlier one, a hang, or a refusal with no holder. Needs the harness's
 * {@link TckHarness#fenceTampering()}; a case the store's state cannot take is skipped.
 */
public interface FenceTamperingRules extends TckSupport {

    /**
     * Attempts after each overwrite: the first, and two more to show the name works again or keeps failing, the last
     * a timed wait of this long (a failure must not be waited out and reported as "held").
     */
    Duration LAST_ATTEMPT_WAIT = Duration.ofSeconds(1);

    @Test
    @DisplayName("§19.1 a lock's fence state deleted between holders: every next holder gets a larger token")
    default void rule_19_1_forgottenLockFenceNeverRepeatsAToken() throws Exception {
        forgetBetweenHolders(TamperedGrants.LOCK, tck().client(), FenceStateTampering::forgetLock);
    }

    @Test
    @DisplayName("§19.2 a lock's fence state overwritten with values the store never writes: a larger token or a clear "
            + "failure")
    default void rule_19_2_overwrittenLockFenceGivesALargerTokenOrFailsClearly() throws Exception {
        overwriteBetweenHolders(TamperedGrants.LOCK, tck().client(), FenceStateTampering::overwriteLock);
    }

    @Test
    @DisplayName("§19.3 a semaphore's fence state deleted between holders: every next permit gets a larger token")
    default void rule_19_3_forgottenSemaphoreFenceNeverRepeatsAToken() throws Exception {
        forgetBetweenHolders(TamperedGrants.SEMAPHORE, Tck.semaphoreClient(tck()),
                FenceStateTampering::forgetSemaphore);
    }

    @Test
    @DisplayName("§19.4 a semaphore's fence state overwritten with values the store never writes: a larger token or a "
            + "clear failure")
    default void rule_19_4_overwrittenSemaphoreFenceGivesALargerTokenOrFailsClearly() throws Exception {
        overwriteBetweenHolders(TamperedGrants.SEMAPHORE, Tck.semaphoreClient(tck()),
                FenceStateTampering::overwriteSemaphore);
    }

    @Test
    @DisplayName("§19.5 a lock's fence state overwritten while held, a thread of the holder's client waiting: the "
            + "release works, the waiter gets a larger token or fails clearly")
    default void rule_19_5_overwrittenWhileHeldTheReleaseWorksAndTheWaiterIsServed() throws Exception {
        FenceStateTampering tampering = tampering();
        LockStore holderClient = tck().client();
        LockStore other = tck().client();
        List<String> problems = new ArrayList<>();
        int tried = 0;
        for (ForeignValue value : ForeignValue.values()) {
            String name = tck().name("held fence " + value);
            Lease held = holderClient.lock(name).acquire();
            CompletableFuture<Optional<Lease>> waiter = CompletableFuture.supplyAsync(() -> {
                try {
                    return holderClient.lock(name).tryAcquire(Tck.HANG);
                } catch (InterruptedException e) {
                    throw new CompletionException(e);
                }
            });
            assertThatThrownBy(() -> waiter.get(500, TimeUnit.MILLISECONDS)).as("waiting while the lock is held")
                    .isInstanceOf(TimeoutException.class);
            if (!tampering.overwriteLock(name, value)) {
                held.release();
                waiter.get(Tck.PROMPTLY.toMillis(), TimeUnit.MILLISECONDS).ifPresent(Lease::release);
                continue;
            }
            tried++;
            String what = "its fence state was overwritten with " + value + " while token " + held.fencingToken()
                    + " held it and a thread of the same client waited";
            String problem = releaseAndServe(name, held, waiter, other, what);
            if (problem != null) {
                problems.add(problem);
            }
        }
        Assumptions.assumeTrue(tried > 0,
                "skipped: the store's fence state of a lock takes none of the foreign values");
        if (!problems.isEmpty()) {
            throw new AssertionError(problems.size() + " of " + tried + " values overwritten under a holder broke the"
                    + " lock:\n" + String.join("\n", problems));
        }
    }

    /**
     * Grants after a restore may wait out what the older copy still shows held: the sessions or leases of holders
     * the copy caught, which end after their timeout once the server is back.
     */
    Duration AFTER_RESTORE_WAIT = Duration.ofSeconds(30);

    @Test
    @DisplayName("§19.6 the store restored from an older copy of its data: the next lock and permit get larger tokens")
    default void rule_19_6_restoredFromAnOlderCopyNeverRepeatsAToken() throws Exception {
        FenceStateTampering.RestorableStore restorable = tampering().restorableStore();
        Assumptions.assumeTrue(restorable != null, "skipped: the store's test cannot restore its server from an "
                + "older copy of its data");
        try (restorable) {
            String lock = tck().name("restored lock");
            String semaphore = tck().name("restored semaphore");
            long lockBefore = 0;
            long permitBefore = 0;
            try (LockStore client = restorable.client()) {
                lockBefore = Math.max(lockBefore, grantedToken(TamperedGrants.LOCK, client, lock, Tck.PROMPTLY));
                permitBefore = Math.max(permitBefore, grantedToken(TamperedGrants.SEMAPHORE, client, semaphore,
                        Tck.PROMPTLY));
                restorable.backUp();
                for (int i = 0; i < 3; i++) {
                    lockBefore = Math.max(lockBefore, grantedToken(TamperedGrants.LOCK, client, lock,
                            Tck.PROMPTLY));
                    permitBefore = Math.max(permitBefore, grantedToken(TamperedGrants.SEMAPHORE, client, semaphore,
                            Tck.PROMPTLY));
                }
            }
            restorable.restoreOlderCopy();
            try (LockStore client = restorable.client()) {
                long lockAfter = grantedToken(TamperedGrants.LOCK, client, lock, AFTER_RESTORE_WAIT);
                long permitAfter = grantedToken(TamperedGrants.SEMAPHORE, client, semaphore, AFTER_RESTORE_WAIT);
                List<String> problems = new ArrayList<>();
                if (lockAfter <= lockBefore) {
                    problems.add("lock '" + lock + "' was granted token " + lockAfter + " after the restore, not "
                            + "greater than token " + lockBefore + " granted before it");
                }
                if (permitAfter <= permitBefore) {
                    problems.add("semaphore '" + semaphore + "' was granted token " + permitAfter + " after the "
                            + "restore, not greater than token " + permitBefore + " granted before it");
                }
                if (!problems.isEmpty()) {
                    throw new AssertionError("the store restored from an older copy of its data repeated tokens:\n"
                            + String.join("\n", problems));
                }
            }
        }
    }

    /** The token of a grant of {@code name} taken within {@code wait} and released at once. */
    /** The lease of §19.7's holds: a store that keeps a restored hold until its lease ends frees it within this. */
    Duration RESTORED_HOLD_LEASE = Duration.ofSeconds(5);

    @Test
    @DisplayName("§19.7 the store restored from an older copy of its data: a lock and a permit released after the copy"
            + " are free again for another client while the client that released them stays open")
    default void rule_19_7_restoredCopyLeavesNothingHeldByTheLiveClientThatReleasedIt() throws Exception {
        FenceStateTampering.RestorableStore restorable = tampering().restorableStore();
        Assumptions.assumeTrue(restorable != null, "skipped: the store's test cannot restore its server from an "
                + "older copy of its data");
        try (restorable) {
            String lock = tck().name("released before the restore");
            String semaphore = tck().name("permit released before the restore");
            LockOptions options = LockOptions.defaults().withLeaseTime(RESTORED_HOLD_LEASE);
            try (LockStore releaser = restorable.client()) {
                Lease held = releaser.lock(lock, options).tryAcquire(Tck.PROMPTLY).orElseThrow(
                        () -> new AssertionError("lock '" + lock + "' was not granted within " + Tck.PROMPTLY));
                Lease permit = releaser.semaphore(semaphore, 1, options).tryAcquire(Tck.PROMPTLY).orElseThrow(
                        () -> new AssertionError("semaphore '" + semaphore + "' was not granted within "
                                + Tck.PROMPTLY));
                restorable.backUp(); // the copy has both holds
                held.release();
                permit.release();
                restorable.restoreOlderCopy();
                // the releaser stays open: a store whose client resumes its session would keep its holds for it
                try (LockStore other = restorable.client()) {
                    List<String> problems = new ArrayList<>();
                    if (TamperedGrants.LOCK.tryAcquire(other, lock, AFTER_RESTORE_WAIT).map(l -> {
                        l.release();
                        return false;
                    }).orElse(true)) {
                        problems.add("lock '" + lock + "' (token " + held.fencingToken() + ")");
                    }
                    if (TamperedGrants.SEMAPHORE.tryAcquire(other, semaphore, AFTER_RESTORE_WAIT).map(l -> {
                        l.release();
                        return false;
                    }).orElse(true)) {
                        problems.add("semaphore '" + semaphore + "' (token " + permit.fencingToken() + ")");
                    }
                    if (!problems.isEmpty()) {
                        throw new AssertionError("released after the copy the store was restored from, and not"
                                + " granted to another client within " + AFTER_RESTORE_WAIT + " (lease "
                                + RESTORED_HOLD_LEASE + ") while the client that released it stayed open: "
                                + String.join(", ", problems));
                    }
                }
            }
        }
    }

    private static long grantedToken(TamperedGrants.Kind kind, LockStore client, String name, Duration wait)
            throws InterruptedException {
        Optional<Lease> lease = kind.tryAcquire(client, name, wait);
        if (lease.isEmpty()) {
            throw new AssertionError(kind.what() + " '" + name + "' was not granted within " + wait
                    + " though nobody held it");
        }
        try (Lease held = lease.get()) {
            return held.fencingToken();
        }
    }

    /**
     * Releases {@code held} and judges what the waiter gets; if it failed clearly, another client's attempt must
     * not find a holder that is not there. Null if all is well, else what went wrong.
     */
    private String releaseAndServe(String name, Lease held, CompletableFuture<Optional<Lease>> waiter,
            LockStore other, String what) throws InterruptedException {
        String where = "lock '" + name + "' after " + what + ": ";
        try {
            held.release();
        } catch (RuntimeException e) {
            return where + "the holder's release failed: " + e;
        }
        TamperedGrants grants = new TamperedGrants(TamperedGrants.LOCK, name, other, other);
        grants.granted(held.fencingToken());
        Optional<Lease> served;
        try {
            served = waiter.get(Tck.PROMPTLY.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            waiter.cancel(true);
            return where + "the waiter had not been served " + Tck.PROMPTLY.toMillis() + " ms after the release";
        } catch (ExecutionException e) {
            String problem = grants.judgeFailure(what + " (the waiter)", other, e.getCause());
            return problem != null ? problem : grants.attempt(what + " and the waiter failed", true);
        }
        if (served.isEmpty()) {
            return where + "the waiter gave up empty though the lock was released (a phantom holder)";
        }
        try (Lease lease = served.get()) {
            if (lease.fencingToken() <= held.fencingToken()) {
                return where + "the waiter was granted token " + lease.fencingToken() + ", not greater than token "
                        + held.fencingToken() + " of the holder before it";
            }
        }
        return null;
    }

    private FenceStateTampering tampering() {
        FenceStateTampering tampering = tck().fenceTampering();
        Assumptions.assumeTrue(tampering != null,
                "skipped: the store under test gives the kit no hand on its fence state");
        return tampering;
    }

    /** Deleting is routine (cleanup jobs): the name must keep working, so here every attempt must be granted. */
    private void forgetBetweenHolders(TamperedGrants.Kind kind, LockStore first,
            TamperedGrants.Forget forget) throws Exception {
        FenceStateTampering tampering = tampering();
        String name = tck().name(kind.what() + " forgotten fence");
        TamperedGrants grants = new TamperedGrants(kind, name, first, tck().client());
        grants.grantUntouched(2);
        for (int round = 1; round <= 3; round++) {
            long before = grants.highest();
            if (!forget.apply(tampering, name)) {
                Assumptions.abort("skipped: the store keeps no fence state of a " + kind.what() + " to delete");
            }
            String problem = grants.attempt("its fence state was deleted (time " + round + ", after token "
                    + before + ")", false);
            if (problem != null) {
                throw new AssertionError(problem);
            }
        }
    }

    /** Each foreign value on a name of its own; every attempt after it is judged, all problems reported at once. */
    private void overwriteBetweenHolders(TamperedGrants.Kind kind, LockStore first, TamperedGrants.Overwrite overwrite)
            throws Exception {
        FenceStateTampering tampering = tampering();
        LockStore second = tck().client();
        List<String> problems = new ArrayList<>();
        List<String> outcomes = new ArrayList<>();
        for (ForeignValue value : ForeignValue.values()) {
            String name = tck().name(kind.what() + " fence " + value);
            TamperedGrants grants = new TamperedGrants(kind, name, first, second);
            grants.grantUntouched(2);
            long before = grants.highest();
            if (!overwrite.apply(tampering, name, value)) {
                continue;
            }
            String what = "its fence state was overwritten with " + value + " (after token " + before + ")";
            String problem = grants.attempt(what, true);
            if (problem == null) {
                problem = grants.attempt(what, true);
            }
            if (problem == null) {
                problem = grants.attempt(what, true, LAST_ATTEMPT_WAIT);
            }
            if (problem != null) {
                problems.add(problem);
            }
            outcomes.add(value + ": " + (problem != null ? "FAILED"
                    : grants.highest() > before ? "granted up to token " + grants.highest()
                    : "failed clearly (" + grants.lastClearFailure() + ")"));
        }
        Assumptions.assumeTrue(!outcomes.isEmpty(),
                "skipped: the store's fence state of a " + kind.what() + " takes none of the foreign values");
        System.out.println("TCK §19 " + kind.what() + " fence overwritten: " + String.join("; ", outcomes));
        if (!problems.isEmpty()) {
            throw new AssertionError(problems.size() + " of " + outcomes.size() + " overwritten values broke the "
                    + kind.what() + ":\n" + String.join("\n", problems));
        }
    }
}
