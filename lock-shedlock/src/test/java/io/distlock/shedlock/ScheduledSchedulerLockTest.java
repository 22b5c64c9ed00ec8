package io.distlock.shedlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * A Spring {@code @Scheduled} + {@code @SchedulerLock} method, unchanged ShedLock usage, in three application
 * contexts (three nodes, each with its own store client) over one real store: every two-second period (the cron
 * fires on every node at once) runs on exactly one node, and lockAtLeastFor (1 s) keeps the lock past the short
 * task, so a node whose clock or scheduler is a little late skips the period instead of running it again.
 */
class ScheduledSchedulerLockTest {

    static final long PERIOD_MILLIS = 2000;
    static final List<Run> RUNS = Collections.synchronizedList(new ArrayList<>());
    /** Every lock attempt of every node, to explain a failure. */
    static final List<String> ATTEMPTS = Collections.synchronizedList(new ArrayList<>());

    record Run(String node, long startedAtMillis) {
        long period() {
            return startedAtMillis / PERIOD_MILLIS;
        }
    }

    private static List<Run> runsFrom(long period) {
        synchronized (RUNS) {
            return RUNS.stream().filter(run -> run.period() >= period).toList();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"redis", "zookeeper", "postgres"})
    void eachPeriodRunsOnceAcrossThreeApplicationContexts(String kind) {
        String uri = TestStores.uri(kind, "shedlock");
        long firstCounted;
        RUNS.clear();
        ATTEMPTS.clear();
        List<AnnotationConfigApplicationContext> nodes = new ArrayList<>();
        try {
            for (int i = 1; i <= 3; i++) {
                AnnotationConfigApplicationContext node = new AnnotationConfigApplicationContext();
                node.getEnvironment().getSystemProperties().put("test.node", "node-" + i);
                node.getEnvironment().getSystemProperties().put("test.uri", uri);
                node.register(NodeConfiguration.class);
                node.refresh();
                nodes.add(node);
            }
            // count the periods that start once all three nodes are up
            long allUp = System.currentTimeMillis() / PERIOD_MILLIS + 1;
            await().atMost(Duration.ofSeconds(30)).until(() -> runsFrom(allUp).size() >= 4);
            firstCounted = allUp;
        } finally {
            nodes.forEach(AnnotationConfigApplicationContext::close);
        }
        List<Run> runs = runsFrom(firstCounted);
        Map<Long, List<String>> byPeriod = runs.stream().collect(Collectors.groupingBy(Run::period, TreeMap::new,
                Collectors.mapping(Run::node, Collectors.toList())));
        assertThat(byPeriod.values()).as("runs per period: %s", byPeriod).allSatisfy(n -> assertThat(n).hasSize(1));
        long first = ((TreeMap<Long, List<String>>) byPeriod).firstKey();
        long last = ((TreeMap<Long, List<String>>) byPeriod).lastKey();
        assertThat(byPeriod).as("no period skipped: %s; attempts %s", byPeriod, ATTEMPTS)
                .hasSize((int) (last - first + 1));
        System.err.printf("ScheduledSchedulerLockTest[%s]: %d periods, %d runs, by node %s%n", kind,
                byPeriod.size(), runs.size(), runs.stream().collect(Collectors.groupingBy(Run::node,
                        TreeMap::new, Collectors.counting())));
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    @EnableSchedulerLock(defaultLockAtMostFor = "10s")
    static class NodeConfiguration {

        @Bean(destroyMethod = "close")
        LockStore lockStore(Environment env) {
            return LockStore.open(env.getRequiredProperty("test.uri"));
        }

        @Bean(destroyMethod = "close")
        LockProvider lockProvider(LockStore store, Environment env) {
            return new RecordingProvider(new DistlockLockProvider(store), env.getRequiredProperty("test.node"));
        }

        @Bean
        ReportJob reportJob(Environment env) {
            return new ReportJob(env.getRequiredProperty("test.node"));
        }
    }

    /** Notes each attempt (node, wall-clock millis, taken or not) and passes it on. */
    record RecordingProvider(DistlockLockProvider provider, String node) implements LockProvider, AutoCloseable {
        @Override
        public java.util.Optional<net.javacrumbs.shedlock.core.SimpleLock> lock(
                net.javacrumbs.shedlock.core.LockConfiguration config) {
            java.util.Optional<net.javacrumbs.shedlock.core.SimpleLock> lock = provider.lock(config);
            ATTEMPTS.add(node + "@" + System.currentTimeMillis() + (lock.isPresent() ? "+" : "-"));
            return lock;
        }

        @Override
        public void close() {
            provider.close();
        }
    }

    /** An ordinary ShedLock user's job: nothing distlock-specific in it. */
    static class ReportJob {
        private final String node;

        ReportJob(String node) {
            this.node = node;
        }

        @Scheduled(cron = "*/2 * * * * *")
        @SchedulerLock(name = "report", lockAtLeastFor = "1s")
        public void report() {
            RUNS.add(new Run(node, System.currentTimeMillis()));
        }
    }
}
