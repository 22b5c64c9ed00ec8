package io.distlock.chaos.explore;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.tck.fixture.PostgresServer;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A fixed sample of the explorer's runs on each store's own server (the full enumeration is {@code distlock
 * explore}): lost and late replies and requests at the lock's acquire and renewal round trips, a cut connection, a
 * paused and a restarted server, a fencing counter exhausted by an operator, a row held by another transaction, a
 * restore from a copy taken mid-run. Each must meet every bar. {@code postgresql/lock/22/reply-lost} finds an acquire
 * whose answer was lost left at the store when the take-back is missing, {@code postgresql/lock/21/row-locked} an
 * acquire committed after its client gave up (no server-side bound), {@code zookeeper/lock/4/server-restore-mid}
 * tokens repeated after a restore (czxid tokens), {@code zookeeper/lock/40/server-restore-released} a node its
 * client released brought back by a restore and kept by that client's resumed session,
 * {@code redis/lock/12/operator-exhaust} tokens going backwards past 2^53,
 * {@code postgresql-notices/lock/24/silent-drop} a LISTEN connection dropped silently and never checked (B waits on
 * while the name is free). The stores run two at a time.
 */
@Execution(ExecutionMode.CONCURRENT) // each store's runs own their server, proxy and names
class ExploreSampleTest {

    static Stream<List<String>> samples() {
        return Stream.of(
                List.of("redis/lock/13/reply-lost", "redis/lock/19/request-lost", "redis/lock/13/server-restart",
                        "redis/lock/12/operator-exhaust"),
                List.of("postgresql/lock/22/reply-lost", "postgresql/lock/21/late-reply",
                        "postgresql/lock/7/cut-after", "postgresql/lock/21/row-locked"),
                List.of("zookeeper/lock/7/reply-lost", "zookeeper/lock/7/server-pause",
                        "zookeeper/lock/13/late-request", "zookeeper/lock/4/server-restore-mid",
                        "zookeeper/lock/40/server-restore-released"),
                List.of("postgresql-notices/lock/24/silent-drop"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void eachSampledRunMeetsEveryBar(List<String> names) throws Exception {
        RunName first = RunName.parse(names.get(0));
        if (first.store().postgres()) {
            Assumptions.assumeTrue(PostgresServer.available(), "PostgreSQL binaries not installed");
        }
        try (Explorer explorer = new Explorer(first.store())) {
            for (String text : names) {
                RunName name = RunName.parse(text);
                ExploreResult r = explorer.run(name.scenario(), name.step(), name.fault());
                assertThat(r.reached()).as(text + " reached its step").isTrue();
                assertThat(r.violations()).as(text + ", fault at " + r.injectedAt() + "; history:\n"
                        + String.join("\n", r.history())).isEmpty();
            }
        }
    }
}
