package io.distlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.DistributedSemaphore;
import io.distlock.StoreUnavailableException;
import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.ServerProcess;
import io.distlock.tck.fixture.TempDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code distlock.lazy-start=true}: an application whose store is down at start-up starts, its health is DOWN until
 * the store is reachable, then UP, and the store works; without it a store that is down fails the start (fail-fast).
 */
class LazyStartTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(DistlockAutoConfiguration.class, DistlockHealthAutoConfiguration.class));

    @Test
    void aStoreDownAtStartIsOpenedWhenItComesUp() {
        int port = FreePorts.next();
        runner.withPropertyValues("distlock.uri=redis://127.0.0.1:" + port + "?timeout=500ms",
                "distlock.lazy-start=true").run(context -> {
                    assertThat(context).hasNotFailed();
                    DistlockHealthIndicator health = context.getBean(DistlockHealthIndicator.class);
                    assertThat(health.health().getStatus()).as("store down").isEqualTo(Status.DOWN);

                    try (ServerProcess redis = redisOn(port).start()) {
                        assertThat(health.health().getStatus()).as("store up").isEqualTo(Status.UP);
                        Optional<Lease> lease = context.getBean(LockStore.class).lock("lazy-start").tryAcquire();
                        assertThat(lease).isPresent();
                        lease.get().release();
                    }
                });
    }

    @Test
    void leadershipAndSemaphoreBeansWaitForAStoreDownAtStart() {
        int port = FreePorts.next();
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DistlockAutoConfiguration.class,
                DistlockLeadershipAutoConfiguration.class, DistlockSemaphoresAutoConfiguration.class))
                .withPropertyValues("distlock.uri=redis://127.0.0.1:" + port + "?timeout=500ms",
                        "distlock.lazy-start=true", "distlock.leadership.name=lazy-leader",
                        "distlock.semaphores.lazy-api=2")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    SpringLeadership leadership = context.getBean(SpringLeadership.class);
                    DistributedSemaphore semaphore = context.getBean("lazy-api", DistributedSemaphore.class);
                    assertThat(leadership.isRunning()).as("campaigning, though the store is down").isTrue();
                    assertThat(leadership.isLeader()).isFalse();
                    assertThatThrownBy(semaphore::tryAcquire).isInstanceOf(StoreUnavailableException.class);

                    try (ServerProcess redis = redisOn(port).start()) {
                        await().atMost(Duration.ofSeconds(20)).until(leadership::isLeader);
                        try (Lease permit = semaphore.tryAcquire().orElseThrow()) {
                            assertThat(permit.fencingToken()).isPositive();
                            assertThat(semaphore.permits()).isEqualTo(2);
                        }
                        leadership.stop();
                    }
                });
    }

    @Test
    void withoutItAStoreDownAtStartFailsTheStart() {
        int port = FreePorts.next();
        runner.withPropertyValues("distlock.uri=redis://127.0.0.1:" + port + "?timeout=500ms").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining(StoreUnavailableException.class.getName());
        });
    }

    private static ServerProcess redisOn(int port) {
        Path binary = ServerProcess.findBinary("redis-server", "/usr/bin/redis-server")
                .orElseThrow(() -> new IllegalStateException("redis-server is needed: apt-get install redis-server"));
        Path dir = TempDirs.create("lazy-start-redis");
        return new ServerProcess("redis-server", List.of(binary.toString(), "--port", Integer.toString(port), "--bind",
                "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString()), dir, port);
    }
}
