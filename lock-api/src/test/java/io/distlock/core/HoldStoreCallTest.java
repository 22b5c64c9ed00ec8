package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockOptions;
import io.distlock.spi.Grant;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** One lease-setting store call at a time per hold: a blocked claimer waits for the claim and gets it when freed. */
class HoldStoreCallTest {

    private final Hold hold = new Hold(new Grant("claimed", "token", 1, null), Thread.currentThread(),
            LockOptions.defaults(), false, new NameState(new Names(), "claimed"));

    @Test
    void aClaimerWaitsWhileAnotherCallHasTheClaimAndGetsItWhenFreed() throws Exception {
        assertThat(hold.tryClaimStoreCall()).isTrue();
        assertThat(hold.tryClaimStoreCall()).as("claimed already").isFalse();
        Thread[] claimer = new Thread[1];
        CompletableFuture<Void> claimed = CompletableFuture.runAsync(() -> {
            claimer[0] = Thread.currentThread();
            hold.claimStoreCall();
        });
        Awaitility.await("the claimer blocks on the claim").atMost(Duration.ofSeconds(10))
                .until(() -> claimer[0] != null && claimer[0].getState() == Thread.State.WAITING);
        assertThat(claimed).isNotDone();
        hold.endStoreCall();
        claimed.get(10, TimeUnit.SECONDS);
        assertThat(hold.tryClaimStoreCall()).as("the woken claimer has it now").isFalse();
        hold.endStoreCall();
        assertThat(hold.tryClaimStoreCall()).as("free again").isTrue();
        hold.endStoreCall();
    }

    @Test
    void nestingCountsLeasesUntilTheOutermostIsReleased() {
        assertThat(hold.nest()).isTrue();
        assertThat(hold.unnest()).isEqualTo(1);
        assertThat(hold.unnest()).isZero();
        assertThat(hold.nest()).as("the outermost lease was released: no nesting on it").isFalse();
    }
}
