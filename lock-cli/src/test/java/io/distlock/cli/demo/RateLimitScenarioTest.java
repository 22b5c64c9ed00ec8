package io.distlock.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LeaseModel;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rate-limited API scenario with four services as separate JVMs on the shared Redis server: with a permit of
 * {@code semaphore(name, 2)} around each call the API never has more than 2 calls in progress and every call is
 * made, under distinct permit tokens. How many calls overlap without the semaphore depends on timing, so that run
 * is only reported and checked for what holds in every interleaving (every call made, at most one per service at
 * once).
 */
class RateLimitScenarioTest extends ScenarioOnSharedRedis {

    @Test
    void withTheSemaphoreTheApiNeverSeesMoreThanTwoCallsAtOnce() {
        DemoContext ctx = context(LeaseModel.TIME, 4);
        List<ApiCallRun> runs = new RateLimitScenario().runs(ctx);
        ApiCallRun without = runs.get(0);
        ApiCallRun with = runs.get(1);

        System.out.println("rate-limited API: without semaphore " + without.mostAtOnce() + " at once, "
                + without.api().overLimit() + " over the limit; with semaphore(2) " + with.mostAtOnce() + " at once, "
                + with.api().overLimit() + " over the limit");
        int calls = 4 * RateLimitScenario.CALLS;
        assertThat(without.withSemaphore()).isFalse();
        assertThat(without.api().calls()).isEqualTo(calls);
        assertThat(without.mostAtOnce()).isBetween(1, 4);
        assertThat(without.api().inFlight()).isZero();

        assertThat(with.withSemaphore()).isTrue();
        assertThat(with.api().calls()).isEqualTo(calls);
        assertThat(with.mostAtOnce()).isBetween(1, RateLimitScenario.LIMIT);
        assertThat(with.api().overLimit()).isZero();
        assertThat(with.api().inFlight()).isZero();
        assertThat(RateLimitScenario.correct(with)).isTrue();
        assertThat(with.services()).allSatisfy(s -> {
            assertThat(s.calls()).isEqualTo(RateLimitScenario.CALLS);
            assertThat(s.overLimit()).isZero();
            assertThat(s.tokens()).hasSize(RateLimitScenario.CALLS).isSorted()
                    .allSatisfy(t -> assertThat(t).isPositive());
        });
        assertThat(with.services()).flatExtracting(ApiCallRun.Caller::tokens).doesNotHaveDuplicates();
    }
}
