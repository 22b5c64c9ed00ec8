package io.distlock.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The short version of the fault suite that runs in {@code ./mvnw verify}: one fault per scenario, a few seconds
 * each, on the faults that matter most. The full run is the {@link ChaosMain} command.
 */
class ChaosShortRunTest {

    private final ChaosSuite suite = new ChaosSuite(3, 1, java.time.Duration.ofSeconds(1));

    private ChaosResult run(String store, Scenario scenario) {
        ChaosResult result = suite.runOne(ChaosMain.stores().get(store), scenario);
        assertThat(result).as("scenario applies").isNotNull();
        assertThat(result.note()).doesNotStartWith("run failed");
        return result;
    }

    private static void assertSafe(ChaosResult r) {
        assertThat(r.acquiredOk()).as("acquisitions").isPositive();
        assertThat(r.undetectedOverlaps()).as("silent overlaps in " + r).isZero();
        assertThat(r.lostUpdates()).as("lost updates in " + r).isZero();
        assertThat(r.staleWritesAccepted()).as("stale writes accepted in " + r).isZero();
    }

    @Test
    void redisClientPausedPastItsLeaseIsFencedOff() {
        ChaosResult r = run("redis", Scenario.CLIENT_PAUSE);
        assertSafe(r);
        assertThat(r.detectedOverlaps() + r.fenceRejections()).as("the paused holder was told or fenced: " + r)
                .isPositive();
    }

    @Test
    void redisWithRestartGuardSurvivesServerCrash() {
        ChaosResult r = run("redis-guard", Scenario.SERVER_RESTART);
        assertSafe(r);
        assertThat(r.recovery()).as("acquisitions resume after the restart").isNotNull();
    }

    @Test
    void zooKeeperClientCrashFreesTheLockWithinTheSessionTimeout() {
        ChaosResult r = run("zookeeper", Scenario.CLIENT_CRASH);
        assertSafe(r);
        assertThat(r.recovery()).isNotNull();
        assertThat(r.recovery()).isLessThan(ZooKeeperTarget.SESSION.plusSeconds(10));
    }

    @Test
    void mariaDbServerPausedPastTheLeaseLosesNothing() {
        ChaosResult r = run("mariadb", Scenario.SERVER_PAUSE);
        assertSafe(r);
    }

    @Test
    void redisScriptCacheFlushedBetweenAcquireAndReleaseIsTransparent() {
        ChaosResult r = run("redis", Scenario.SCRIPT_FLUSH);
        assertSafe(r);
        assertThat(r.acquiredUnknown()).as("no acquisition failed because of NOSCRIPT").isZero();
    }

    @Test
    void everyScenarioHasACommandLineName() {
        assertThat(List.of(Scenario.values())).extracting(ChaosMain::cliName)
                .contains("client-pause", "server-restart", "network-freeze-long");
    }
}
