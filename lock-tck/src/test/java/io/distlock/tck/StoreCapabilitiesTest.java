package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Features;
import io.distlock.LeaseModel;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the kit is told of a store beside its features, and the margins it takes from those features. */
class StoreCapabilitiesTest {

    private static final Features TIME = new Features(LeaseModel.TIME, Optional.empty(), 100, 0, true, false, false);
    private static final Features SESSION = new Features(LeaseModel.SESSION, Optional.of(Duration.ofSeconds(4)), 100,
            0, true, false, false);

    @Test
    void onlyTheInMemoryStoreHasNoClientsInOtherJvms() {
        assertThat(StoreCapabilities.of("mem:caps").separateJvmClients()).isFalse();
        assertThat(StoreCapabilities.of("redis://127.0.0.1:6379").separateJvmClients()).isTrue();
    }

    @Test
    void theMarginAndSessionTimeoutComeFromTheFeaturesUnlessDeclared() {
        StoreCapabilities defaults = StoreCapabilities.defaults();
        assertThat(defaults.expiryMargin(TIME)).isEqualTo(Duration.ofSeconds(2));
        assertThat(defaults.expiryMargin(SESSION)).isEqualTo(Duration.ofSeconds(5));
        assertThat(defaults.sessionTimeout(SESSION)).isEqualTo(Duration.ofSeconds(4));
        StoreCapabilities declared = defaults.withExpiryMargin(Duration.ofSeconds(1))
                .withSessionTimeout(Duration.ofSeconds(6));
        assertThat(declared.expiryMargin(SESSION)).isEqualTo(Duration.ofSeconds(1));
        assertThat(declared.sessionTimeout(SESSION)).isEqualTo(Duration.ofSeconds(6));
    }
}
