package io.distlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The unreachable twin of a loopback store URI: same URI, a closed port; none for remote hosts. */
class StoreUrisTest {

    @Test
    void replacesTheLoopbackPortKeepingEverythingElse() {
        String twin = StoreUris.unreachableTwin("jdbc:mariadb://root:pw@127.0.0.1:3306/test?user=root");
        assertThat(twin).startsWith("jdbc:mariadb://root:pw@127.0.0.1:").endsWith("/test?user=root")
                .doesNotContain(":3306");
        assertThat(StoreUris.unreachableTwin("redis://localhost:6379")).matches("redis://localhost:\\d+")
                .isNotEqualTo("redis://localhost:6379");
    }

    @Test
    void noTwinForRemoteHostsOrMissingPorts() {
        assertThat(StoreUris.unreachableTwin("redis://cache.internal:6379")).isNull();
        assertThat(StoreUris.unreachableTwin("redis://127.0.0.1")).isNull();
        assertThat(StoreUris.unreachableTwin("mem:x")).isNull();
    }
}
