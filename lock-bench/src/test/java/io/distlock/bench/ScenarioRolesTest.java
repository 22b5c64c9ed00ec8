package io.distlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.Role;
import io.distlock.bench.core.Scenario;
import io.distlock.bench.scenario.CostProbe;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which scenarios each kind of contender runs: the raw limit only the uncontended ones, the raw wake-up floor only
 * the hand-off, distlock every lock scenario.
 */
class ScenarioRolesTest {

    private final BenchRunner runner = new BenchRunner(new BenchConfig(List.of("redis"), Duration.ZERO,
            Duration.ofSeconds(1), 1, 8, 2, Duration.ofMillis(5), 0, Duration.ofSeconds(6), 0,
            BenchConfig.DEFAULT_SERVERS, BenchConfig.DEFAULT_DISTLOCK_URIS, Path.of("."), false, "test"), System.out);

    @Test
    void theWakeUpFloorRunsOnlyTheHandoff() {
        assertThat(scenariosOf(Role.RAW_WAKE_UP)).containsExactly("handoff");
        assertThat(Role.RAW_WAKE_UP.isLibrary()).isFalse();
    }

    @Test
    void theRawLimitRunsOnlyTheUncontendedScenariosAndDistlockEveryLockScenario() {
        assertThat(scenariosOf(Role.RAW)).containsExactly("uncontended-1", "uncontended-8");
        assertThat(scenariosOf(Role.DISTLOCK))
                .containsExactly("uncontended-1", "uncontended-8", "contended-8x2", "handoff");
    }

    @Test
    void theFencedCuratorMutexRunsEveryScenarioTheMutexRunsAndEveryCountedLockLoop() {
        assertThat(scenariosOf(Role.CURATOR_FENCED)).isEqualTo(scenariosOf(Role.CURATOR))
                .containsExactly("uncontended-1", "uncontended-8", "contended-8x2", "handoff");
        assertThat(List.of(CostProbe.PAIR, CostProbe.HANDOFF, CostProbe.CONTENDED, CostProbe.SEMAPHORE_PAIR))
                .filteredOn(loop -> CostProbe.appliesTo(loop, contender(Role.CURATOR_FENCED)))
                .containsExactly(CostProbe.PAIR, CostProbe.HANDOFF, CostProbe.CONTENDED);
        assertThat(CostProbe.appliesTo(CostProbe.CONTENDED, contender(Role.RAW))).as("the raw limit never waits")
                .isFalse();
    }

    private List<String> scenariosOf(Role role) {
        Contender contender = contender(role);
        return runner.scenarios().stream().filter(s -> s.appliesTo(contender)).map(Scenario::id).toList();
    }

    private static Contender contender(Role role) {
        return new Contender(role.name(), role) {
            @Override
            protected LockClient openClient() {
                throw new UnsupportedOperationException("no scenario runs here");
            }
        };
    }
}
