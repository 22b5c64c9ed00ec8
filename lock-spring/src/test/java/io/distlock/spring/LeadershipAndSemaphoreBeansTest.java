package io.distlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.LeadershipListener;
import io.distlock.Lease;
import io.distlock.DistributedSemaphore;
import io.distlock.shedlock.TestStores;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.core.NestedExceptionUtils;

/**
 * The starter's leader election ({@code distlock.leadership.name}) and semaphore beans
 * ({@code distlock.semaphores.NAME=PERMITS}) on the shared Redis server, two applications at a time: one leader
 * whose term passes to the other when it closes, told to listener beans and to event listeners; permits shared.
 */
class LeadershipAndSemaphoreBeansTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(DistlockAutoConfiguration.class, DistlockLeadershipAutoConfiguration.class,
                    DistlockSemaphoresAutoConfiguration.class));

    @Test
    void onePropertyElectsOneLeaderAndTheTermPassesWhenItsApplicationCloses() {
        String uri = "distlock.uri=" + TestStores.uri("redis", "spring-leadership");
        runner.withPropertyValues(uri, "distlock.leadership.name=queue-poller").withUserConfiguration(Recorder.class)
                .run(first -> {
                    Recorder firstSeen = first.getBean(Recorder.class);
                    SpringLeadership firstLeadership = first.getBean(SpringLeadership.class);
                    await().atMost(Duration.ofSeconds(10)).until(() -> firstSeen.events().size() == 2);
                    assertThat(firstSeen.events()).containsExactly("listener elected", "event elected");
                    assertThat(firstLeadership.isLeader()).isTrue();
                    long firstTerm = firstLeadership.lease().orElseThrow().fencingToken();

                    var second = runner.withPropertyValues(uri, "distlock.leadership.name=queue-poller")
                            .withUserConfiguration(Recorder.class);
                    second.run(next -> {
                        SpringLeadership nextLeadership = next.getBean(SpringLeadership.class);
                        assertThat(nextLeadership.isRunning()).as("campaigning").isTrue();
                        assertThat(nextLeadership.isLeader()).as("while the first leads").isFalse();

                        first.close();
                        assertThat(firstSeen.events()).containsExactly("listener elected", "event elected",
                                "listener revoked", "event revoked");
                        assertThat(firstLeadership.isRunning()).isFalse();
                        Recorder nextSeen = next.getBean(Recorder.class);
                        await().atMost(Duration.ofSeconds(10)).until(() -> nextSeen.events().size() == 2);
                        assertThat(nextLeadership.isLeader()).isTrue();
                        assertThat(nextLeadership.lease().orElseThrow().fencingToken())
                                .as("the next term's number").isGreaterThan(firstTerm);
                        assertThat(nextSeen.events())
                                .containsExactly("listener elected", "event elected");
                    });
                });
    }

    @Test
    void withoutTheNameThereIsNoCampaign() {
        runner.withPropertyValues("distlock.uri=mem:" + TestStores.unique())
                .run(context -> assertThat(context).doesNotHaveBean(SpringLeadership.class));
    }

    @Test
    void aBlankNameFailsTheStartNamingTheProperty() {
        runner.withPropertyValues("distlock.uri=mem:" + TestStores.unique(), "distlock.leadership.name= ")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .hasMessageContaining("distlock.leadership.name must not be blank"));
    }

    @Test
    void eachSemaphoreEntryIsABeanWhosePermitsEveryApplicationShares() {
        String uri = "distlock.uri=" + TestStores.uri("redis", "spring-semaphores");
        runner.withPropertyValues(uri, "distlock.semaphores.partner-api=2", "distlock.semaphores.exports=1")
                .run(first -> runner.withPropertyValues(uri, "distlock.semaphores.partner-api=2").run(second -> {
                    DistributedSemaphore here = first.getBean("partner-api", DistributedSemaphore.class);
                    DistributedSemaphore there = second.getBean("partner-api", DistributedSemaphore.class);
                    assertThat(here.permits()).isEqualTo(2);
                    assertThat(first.getBean("exports", DistributedSemaphore.class).permits()).isEqualTo(1);
                    assertThat(second).doesNotHaveBean("exports");
                    try (Lease one = here.acquire(); Lease two = there.acquire()) {
                        Optional<Lease> third = there.tryAcquire();
                        assertThat(third).as("a third permit while two are held").isEmpty();
                        assertThat(one.fencingToken()).isNotEqualTo(two.fencingToken());
                    }
                    try (Lease again = there.tryAcquire().orElseThrow()) {
                        assertThat(again.fencingToken()).isPositive();
                    }
                }));
    }

    @Test
    void aSemaphoreWithoutPermitsFailsTheStartNamingTheEntry() {
        runner.withPropertyValues("distlock.uri=mem:" + TestStores.unique(), "distlock.semaphores.partner-api=0")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("distlock.semaphores.partner-api")
                        .hasMessageContaining("at least 1, got 0"));
    }

    /** A listener bean and an event listener, recording what they are told in order. */
    @Configuration(proxyBeanMethods = false)
    static class Recorder {

        private final List<String> events = new CopyOnWriteArrayList<>();

        List<String> events() {
            return events;
        }

        @Bean
        LeadershipListener recordingListener() {
            return new LeadershipListener() {
                @Override
                public void elected(Lease term) {
                    events.add("listener elected");
                }

                @Override
                public void revoked(Lease term) {
                    events.add("listener revoked");
                }
            };
        }

        @EventListener
        void on(LeadershipEvent event) {
            events.add(event instanceof LeadershipEvent.Elected ? "event elected" : "event revoked");
        }
    }
}
