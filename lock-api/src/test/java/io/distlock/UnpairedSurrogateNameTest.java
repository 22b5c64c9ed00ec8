package io.distlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A name with an unpaired surrogate is refused as a lock and as a semaphore (DEFECTS C30: stores keeping names as
 * UTF-8 turned it into {@code '?'}, so "a\uD800" was the lock of "a?"); names with surrogate pairs are accepted.
 */
class UnpairedSurrogateNameTest {

    @Test
    void unpairedSurrogatesAreRefusedAndPairsAccepted() throws Exception {
        try (LockStore store = LockStore.open("mem:names-" + UUID.randomUUID())) {
            for (String bad : List.of("a\uD800", "\uDC00", "\uDC00\uD800", "x\uD83Dy", "\uD83D\uDE00\uD83D")) {
                assertThatThrownBy(() -> store.lock(bad)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("unpaired surrogate");
                assertThatThrownBy(() -> store.semaphore(bad, 2)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("unpaired surrogate");
            }
            for (String good : List.of("\uD83D\uDE00", "a\uD83D\uDE00b\uD83D\uDE00", "a?", "\u00FC")) {
                store.lock(good).tryAcquire().orElseThrow().release();
                store.semaphore(good, 2).tryAcquire().orElseThrow().release();
            }
        }
    }
}
