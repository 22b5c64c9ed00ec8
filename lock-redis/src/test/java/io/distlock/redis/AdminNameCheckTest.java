package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.StoreServers;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The admin view checks a name as a lock does: a force-release of a name the API refuses (an unpaired surrogate,
 * which UTF-8 encoding turns into {@code '?'}) is refused, and never frees the lock of the name it would have been
 * encoded as (DEFECTS C31).
 */
class AdminNameCheckTest {

    @Test
    void aForceReleaseOfARefusedNameIsRefusedAndLeavesTheOtherNamesLockHeld() {
        String uri = StoreServers.redis() + "?keyPrefix=admin-" + UUID.randomUUID().toString().substring(0, 8) + ":";
        try (LockStore holder = LockStore.open(uri); LockStore operator = LockStore.open(uri)) {
            try (Lease held = holder.lock("a?").tryAcquire().orElseThrow()) {
                assertThatThrownBy(() -> operator.admin().forceRelease("a\uD800"))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unpaired surrogate");
                assertThatThrownBy(() -> operator.admin().forceRelease("a\uD800", held.fencingToken()))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unpaired surrogate");
                assertThat(operator.lock("a?").tryAcquire()).as("lock 'a?' while its holder still holds it")
                        .isEmpty();
                assertThat(held.isValid()).isTrue();
            }
        }
    }
}
