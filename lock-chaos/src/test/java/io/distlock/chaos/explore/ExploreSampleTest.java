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
 * paused and a restarted server. Each must meet every bar. {@code postgresql/lock/22/reply-lost} is the run that
 * finds an acquire whose answer was lost left at the store when the take-back is missing. The stores run two at a
 * time (146 s one after another at load 27).
 */
@Execution(ExecutionMode.CONCURRENT) // each store's runs own their server, proxy and names
class ExploreSampleTest {

    static Stream<List<String>> samples() {
        return Stream.of(
                List.of("redis/lock/13/reply-lost", "redis/lock/19/request-lost", "redis/lock/13/server-restart"),
                List.of("postgresql/lock/22/reply-lost", "postgresql/lock/21/late-reply",
                        "postgresql/lock/7/cut-after"),
                List.of("zookeeper/lock/7/reply-lost", "zookeeper/lock/7/server-pause",
                        "zookeeper/lock/13/late-request"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void eachSampledRunMeetsEveryBar(List<String> names) throws Exception {
        RunName first = RunName.parse(names.get(0));
        if (first.store() == ExploreStore.POSTGRESQL) {
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
