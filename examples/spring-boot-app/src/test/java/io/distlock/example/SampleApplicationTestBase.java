package io.distlock.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.spring.SpringLeadership;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The sample application started on one store (each subclass names it): the starter's store, Spring Integration's
 * leader initiator and ShedLock all work with the versions Spring Boot's parent manages.
 */
@SpringBootTest(properties = "sample.report-period=PT0.2S")
abstract class SampleApplicationTestBase {

    /** One run's names, so runs on the shared servers never meet. */
    static final String RUN = UUID.randomUUID().toString().substring(0, 8);

    @Autowired
    LockStore store;

    @Autowired
    LockRegistryLeaderInitiator leaderInitiator;

    @Autowired
    LockProvider lockProvider;

    @Autowired
    ReportJob reportJob;

    @Autowired
    QueuePoller queuePoller;

    @Autowired
    SpringLeadership leadership;

    static void names(DynamicPropertyRegistry registry) {
        registry.add("sample.leader-role", () -> "sample-leader-" + RUN);
        registry.add("sample.report-lock", () -> "sample-report-" + RUN);
        registry.add("distlock.leadership.name", () -> "sample-queue-poller-" + RUN);
    }

    @Test
    void theStoreGrantsFencedLeases() throws Exception {
        long firstToken;
        try (Lease first = store.lock("sample-order-" + RUN).acquire()) {
            firstToken = first.fencingToken();
            assertThat(firstToken).isPositive();
            Optional<Lease> elsewhere = CompletableFuture.supplyAsync(() -> store.lock("sample-order-" + RUN)
                    .tryAcquire()).get(10, TimeUnit.SECONDS);
            assertThat(elsewhere).as("another thread while held").isEmpty();
        }
        try (Lease second = store.lock("sample-order-" + RUN).acquire()) {
            assertThat(second.fencingToken()).isGreaterThan(firstToken);
        }
    }

    @Test
    void theLeaderInitiatorIsElectedThroughTheStore() {
        await().atMost(Duration.ofSeconds(20)).until(() -> leaderInitiator.getContext().isLeader());
    }

    @Test
    void onePropertyElectsTheQueuePollerThroughTheStore() {
        await().atMost(Duration.ofSeconds(20)).until(() -> queuePoller.term() > 0);
        assertThat(leadership.isLeader()).isTrue();
        assertThat(leadership.lease().orElseThrow().fencingToken()).isEqualTo(queuePoller.term());
    }

    @Test
    void shedLockRunsTheScheduledJobAndLocksThroughTheStore() {
        await().atMost(Duration.ofSeconds(20)).until(() -> reportJob.runs() >= 1);

        LockConfiguration config = new LockConfiguration(Instant.now(), "sample-shedlock-" + RUN,
                Duration.ofSeconds(30), Duration.ZERO);
        Optional<SimpleLock> held = lockProvider.lock(config);
        assertThat(held).isPresent();
        assertThat(lockProvider.lock(config)).as("while held").isEmpty();
        held.get().unlock();
        lockProvider.lock(config).orElseThrow().unlock();
    }
}
