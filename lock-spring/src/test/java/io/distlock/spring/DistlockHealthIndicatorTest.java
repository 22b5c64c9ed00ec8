package io.distlock.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockStore;
import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.ServerProcess;
import io.distlock.tck.fixture.TempDirs;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/** The health indicator against a Redis server of its own, paused (SIGSTOP) to make it unreachable. */
class DistlockHealthIndicatorTest {

    @Test
    void upWhileTheStoreAnswersDownWhileItIsPausedUpAgainAfter() {
        Path binary = ServerProcess.findBinary("redis-server", "/usr/bin/redis-server")
                .orElseThrow(() -> new IllegalStateException("redis-server is needed: apt-get install redis-server"));
        Path dir = TempDirs.create("health-redis");
        int port = FreePorts.next();
        try (ServerProcess redis = new ServerProcess("redis-server", List.of(binary.toString(), "--port",
                Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir",
                dir.toString()), dir, port).start();
                LockStore store = LockStore.open("redis://127.0.0.1:" + port + "?timeout=500ms")) {
            DistlockHealthIndicator health = new DistlockHealthIndicator(store);

            Health up = health.health();
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            assertThat(up.getDetails()).containsKey("probeMillis").containsEntry("store", store.toString());

            redis.pause();
            try {
                Health down = health.health();
                assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                assertThat(down.getDetails()).containsKey("error");
            } finally {
                redis.resume();
            }
            assertThat(health.health().getStatus()).isEqualTo(Status.UP);
        }
    }
}
