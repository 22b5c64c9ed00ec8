package io.distlock.spring.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.shedlock.TestStores;
import io.distlock.spring.DistlockAutoConfiguration;
import io.distlock.spring.DistlockIntegrationAutoConfiguration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * Spring Integration's own {@link LockRegistryLeaderInitiator} on three nodes (three Spring Boot applications, each
 * with its own store client from {@code distlock.uri}) over one real store. Each leader writes to a fenced register
 * with its lease's fencing token for as long as it believes it leads. The leader is stopped (its application
 * closed) three times: leadership must move to a node still running, with a higher token, and no two holders may
 * ever present one token.
 */
class LeaderInitiatorOnDistlockTest {

    private static final String ROLE = "billing-leader";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"redis", "zookeeper", "postgres"})
    void oneLeaderAtATimeAndLeadershipMovesWhenTheLeaderStops(String kind) {
        String uri = TestStores.uri(kind, "spring");
        FencedRegister register = new FencedRegister();
        List<Grant> grants = Collections.synchronizedList(new ArrayList<>());
        List<Node> nodes = new ArrayList<>();
        try {
            for (int i = 1; i <= 3; i++) {
                nodes.add(new Node("node-" + i, uri, register, grants));
            }
            long previousToken = 0;
            for (int round = 1; round <= 3; round++) {
                int grantsBefore = round - 1;
                await().atMost(Duration.ofSeconds(30)).until(() -> grants.size() > grantsBefore);
                Grant grant = grants.get(grantsBefore);
                Node leader = nodes.stream().filter(n -> n.id.equals(grant.node)).findFirst().orElseThrow();
                assertThat(leader.running).as("a stopped node never leads again").isTrue();
                assertThat(grant.token).as("each new leader's token is higher").isGreaterThan(previousToken);
                previousToken = grant.token;
                long acceptedBefore = register.accepted();
                await().atMost(Duration.ofSeconds(10)).until(() -> register.accepted() > acceptedBefore + 10
                        && grant.node.equals(register.lastWriter()));
                leader.stop();
            }
            // all three have led once and been stopped: nobody leads, nobody else was granted
            assertThat(grants).hasSize(3);
            assertThat(grants.stream().map(g -> g.node).distinct()).hasSize(3);
            assertThat(register.violations()).isEmpty();
            System.err.printf("LeaderInitiatorOnDistlockTest[%s]: leaders observed %d (%s), accepted writes %d, "
                    + "fenced refusals %d%n", kind, grants.size(), grants, register.accepted(), register.refused());
        } finally {
            nodes.forEach(Node::stop);
        }
    }

    record Grant(String node, long token) {
        @Override
        public String toString() {
            return node + "@" + token;
        }
    }

    /** One node: a Spring Boot application with distlock's auto-configuration and a leader initiator. */
    static final class Node extends DefaultCandidate {
        final String id;
        private final FencedRegister register;
        private final List<Grant> grants;
        private final ConfigurableApplicationContext context;
        volatile boolean running = true;
        private volatile boolean leading;
        private volatile LockRegistry<?> registry;

        Node(String id, String uri, FencedRegister register, List<Grant> grants) {
            super(id, ROLE);
            this.id = id;
            this.register = register;
            this.grants = grants;
            this.context = new SpringApplicationBuilder(NodeApplication.class)
                    .web(WebApplicationType.NONE)
                    .logStartupInfo(false)
                    .initializers(ctx -> ctx.getBeanFactory().registerSingleton("candidate", this))
                    .properties("distlock.uri=" + uri, "spring.main.banner-mode=off")
                    .run();
        }

        @Override
        public void onGranted(Context ctx) {
            long token = ((DistlockLock) registry.obtain(ROLE)).currentLease().fencingToken();
            leading = true;
            grants.add(new Grant(id, token));
            Thread writer = new Thread(() -> {
                while (leading) {
                    register.write(token, id);
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2)); // pacing, not synchronisation
                }
            }, id + "-writer");
            writer.setDaemon(true);
            writer.start();
        }

        @Override
        public void onRevoked(Context ctx) {
            leading = false;
        }

        void stop() {
            if (running) {
                running = false;
                context.close();
                leading = false;
            }
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({DistlockAutoConfiguration.class, DistlockIntegrationAutoConfiguration.class})
    static class NodeApplication {
        @Bean
        LockRegistryLeaderInitiator leaderInitiator(LockRegistry<?> registry, Node candidate) {
            candidate.registry = registry;
            LockRegistryLeaderInitiator initiator = new LockRegistryLeaderInitiator(registry, candidate);
            initiator.setHeartBeatMillis(200);
            initiator.setBusyWaitMillis(20);
            return initiator;
        }
    }
}
