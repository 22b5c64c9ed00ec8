package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockStore;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Capabilities derived from what a store declares match what the kit's own store tests state by hand. */
class StoreCapabilitiesTest {

    @Test
    void theMemStoreDeclaresWhatMemStoreTckTestStates() {
        String uri = "mem:caps-" + UUID.randomUUID();
        try (LockStore store = LockStore.open(uri)) {
            assertThat(StoreCapabilities.of(store, uri))
                    .isEqualTo(StoreCapabilities.timeBound().withSeparateJvmClients(false));
        }
    }
}
