package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockException;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * §20 A spoiled key, row or node of one name never costs another name its lease: one client holds several names
 * with short, renewed leases (renewals batched as the store batches them), an operator spoils the record of the
 * one taken last, and every other name stays held (its lease valid, another client refused) over several renewal
 * intervals and past a whole lease time; the spoiled name is reported lost or its release fails with a
 * {@link LockException} that is no outage. Needs the harness's {@link TckHarness#spoiledNameState()}.
 */
public interface SpoiledNameRules extends TckSupport {

    /** How many names the client holds besides the spoiled one. */
    int OTHERS = 4;
    /** How long the other names must stay held after the spoiling: six renewal intervals, two lease times. */
    Duration WINDOW = Tck.SHORT_LEASE.multipliedBy(2);

    @Test
    @DisplayName("§20.1 one lock's record spoiled while a client holds several: every other lock keeps its lease")
    default void rule_20_1_aSpoiledLockCostsNoOtherLockItsLease() throws Exception {
        keepsTheOthers("lock", tck().client(), (client, name) -> client.lock(name, Tck.renewed()).tryAcquire(),
                SpoiledNameState::spoilLock);
    }

    @Test
    @DisplayName("§20.2 one semaphore's record spoiled while a client holds permits of several: every other permit is "
            + "kept")
    default void rule_20_2_aSpoiledSemaphoreCostsNoOtherSemaphoreItsPermit() throws Exception {
        keepsTheOthers("semaphore", Tck.semaphoreClient(tck()),
                (client, name) -> client.semaphore(name, 1, Tck.renewed()).tryAcquire(),
                SpoiledNameState::spoilSemaphore);
    }

    /** One attempt to take {@code name} on {@code client}. */
    @FunctionalInterface
    interface Take {
        Optional<Lease> tryAcquire(LockStore client, String name);
    }

    /** Spoils {@code name} through the hook; false if the store keeps no such record. */
    @FunctionalInterface
    interface Spoil {
        boolean apply(SpoiledNameState state, String name) throws Exception;
    }

    private void keepsTheOthers(String what, LockStore client, Take take, Spoil spoil) throws Exception {
        SpoiledNameState state = tck().spoiledNameState();
        Assumptions.assumeTrue(state != null, "skipped: the store's kit subclass supplies no spoiledNameState()");
        List<String> names = new ArrayList<>();
        List<Lease> others = new ArrayList<>();
        for (int i = 0; i < OTHERS; i++) {
            names.add(tck().name("kept " + what + " " + i));
            others.add(take.tryAcquire(client, names.get(i)).orElseThrow());
        }
        // taken last, so its lease would run out last: a batch that fails for it fails until the others ran out
        String spoiledName = tck().name("spoiled " + what);
        Lease spoiled = take.tryAcquire(client, spoiledName).orElseThrow();
        Assumptions.assumeTrue(spoil.apply(state, spoiledName),
                "skipped: the store keeps no record of a " + what + "'s holder an operator could spoil");

        Awaitility.await().during(WINDOW).atMost(WINDOW.plus(Tck.PROMPTLY)).pollInterval(Duration.ofMillis(50))
                .untilAsserted(() -> assertThat(others.stream().filter(lease -> !lease.isValid()).toList())
                        .as("the other %ss' leases lost after %s '%s' was spoiled", what, what, spoiledName)
                        .isEmpty());
        LockStore other = tck().client();
        for (String name : names) {
            assertThat(take.tryAcquire(other, name)).as("another client's attempt on the kept " + what + " '"
                    + name + "' (its holder's lease must still be in the store)").isEmpty();
        }

        long start = System.nanoTime();
        boolean reportedLost = !spoiled.isValid();
        RuntimeException releaseFailure = null;
        try {
            spoiled.release();
        } catch (RuntimeException e) {
            releaseFailure = e;
        }
        assertThat(Tck.elapsedSince(start)).as("releasing the spoiled " + what).isLessThan(Tck.PROMPTLY);
        assertThat(releaseFailure).as("the spoiled " + what + "'s release may fail with a LockException, no outage")
                .satisfiesAnyOf(e -> assertThat(e).isNull(),
                        e -> assertThat(e).isInstanceOf(LockException.class)
                                .isNotInstanceOf(StoreUnavailableException.class));
        assertThat(reportedLost || releaseFailure != null).as("the spoiled " + what + " '" + spoiledName
                + "' is reported lost, or its release fails (valid until the end: " + spoiled.isValid() + ")")
                .isTrue();
        for (Lease lease : others) {
            lease.release(); // throws LockLostException if the store had lost it after all
        }
    }
}
