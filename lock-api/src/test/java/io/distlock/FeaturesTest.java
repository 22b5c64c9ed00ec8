package io.distlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a store states of itself, and the statements a Features record refuses. */
class FeaturesTest {

    @Test
    void theMemStoreStatesEverythingItOffers() {
        try (LockStore store = LockStore.open("mem:")) {
            Features f = store.features();
            assertThat(f.leaseModel()).isEqualTo(LeaseModel.TIME).isEqualTo(store.leaseModel());
            assertThat(f.sessionTimeout()).isEmpty();
            assertThat(store.sessionTimeout()).isEmpty();
            assertThat(f.semaphores()).isTrue();
            assertThat(f.admin()).isTrue();
            assertThat(f.adminListsPermits()).isTrue();
            assertThat(f.handsOver()).isTrue();
            String longest = "n".repeat(f.maxNameLength());
            assertThat(store.lock(longest).name()).isEqualTo(longest);
            assertThatThrownBy(() -> store.lock(longest + "n")).isInstanceOf(IllegalArgumentException.class);
            assertThat(store.semaphore("s", f.maxPermits()).permits()).isEqualTo(f.maxPermits());
            assertThatThrownBy(() -> store.semaphore("s", f.maxPermits() + 1))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void contradictoryStatementsAreRefused() {
        assertThatThrownBy(() -> new Features(LeaseModel.TIME, Optional.of(Duration.ofSeconds(5)), 10, 0, false,
                false, false)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("session");
        assertThatThrownBy(() -> new Features(LeaseModel.TIME, Optional.empty(), 0, 0, false, false, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxNameLength");
        assertThatThrownBy(() -> new Features(LeaseModel.TIME, Optional.empty(), 10, -1, false, false, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxPermits");
        assertThatThrownBy(() -> new Features(LeaseModel.TIME, Optional.empty(), 10, 5, false, true, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("admin");
        assertThat(new Features(LeaseModel.SESSION, Optional.of(Duration.ofSeconds(5)), 10, 0, true, false, false)
                .semaphores()).isFalse();
    }

    @Test
    void theSchemesOnTheClassPathAreListedWithoutConnecting() {
        assertThat(LockStore.availableSchemes()).contains("mem");
    }
}
