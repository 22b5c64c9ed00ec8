package io.distlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Opening stores by URI: discovery, the messages for bad URIs, and mem: space sharing. */
class StoreDiscoveryTest {

    @Test
    void unknownSchemeListsAvailableSchemesAndTheModuleToAdd() {
        assertThatThrownBy(() -> LockStore.open("redis://user:s3cret@localhost:6379"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scheme 'redis'")
                .hasMessageContaining("[mem]")
                .hasMessageContaining("io.distlock:lock-redis")
                .hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> LockStore.open("etcd://localhost:2379"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scheme 'etcd'")
                .hasMessageContaining("zookeeper");
    }

    @Test
    void malformedUrisAreRefusedWithClearMessages() {
        assertThatThrownBy(() -> LockStore.open(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("uri");
        assertThatThrownBy(() -> LockStore.open("  ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> LockStore.open("localhost:6379x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LockStore.open("no-scheme-here")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no scheme");
        assertThatThrownBy(() -> LockStore.open("mem:x?foo=1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("foo");
    }

    @Test
    void memStoresOfOneNameShareLocksAndAnonymousOnesDoNot() {
        String space = "mem:" + UUID.randomUUID();
        try (LockStore a = LockStore.open(space); LockStore b = LockStore.open(space);
             LockStore privateOne = LockStore.open("mem:")) {
            try (Lease lease = a.lock("shared").tryAcquire().orElseThrow()) {
                assertThat(b.lock("shared").tryAcquire()).isEmpty();
                assertThat(privateOne.lock("shared").tryAcquire()).isPresent().get().satisfies(Lease::release);
                assertThat(lease.isValid()).isTrue();
            }
        }
    }

    @Test
    void schemesAreCaseInsensitive() {
        try (LockStore store = LockStore.open("MEM:" + UUID.randomUUID())) {
            assertThat(store.toString()).contains("MEM:");
        }
    }
}
