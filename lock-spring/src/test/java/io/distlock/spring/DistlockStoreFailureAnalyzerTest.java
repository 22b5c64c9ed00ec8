package io.distlock.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.tck.fixture.FreePorts;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * {@link DistlockStoreFailureAnalyzer} on real start-up failures of the store bean: a store that is down, an unknown
 * scheme, a bad lease time; and it is registered for Spring Boot to find. (Jedis 7: StarterOnBootManagedJedisTest.)
 */
class DistlockStoreFailureAnalyzerTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DistlockAutoConfiguration.class));

    private final DistlockStoreFailureAnalyzer analyzer = new DistlockStoreFailureAnalyzer();

    @Test
    void aStoreThatIsDownIsReportedWithTheLazyStartProperty() {
        runner.withPropertyValues("distlock.uri=redis://127.0.0.1:" + FreePorts.next() + "?timeout=500ms")
                .run(context -> {
                    FailureAnalysis analysis = analyzer.analyze(context.getStartupFailure());
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription()).startsWith("distlock could not open its store: ")
                            .contains("127.0.0.1");
                    assertThat(analysis.getAction()).contains("distlock.lazy-start=true");
                });
    }

    @Test
    void anUnknownSchemeAndABadLeaseTimeAskToCorrectTheProperty() {
        for (String property : List.of("distlock.uri=nosuch://x", "distlock.lease-time=0s")) {
            runner.withPropertyValues("distlock.uri=mem:analyzer", property).run(context -> {
                FailureAnalysis analysis = analyzer.analyze(context.getStartupFailure());
                assertThat(analysis).as(property).isNotNull();
                assertThat(analysis.getDescription()).as(property)
                        .contains(property.startsWith("distlock.uri") ? "nosuch" : "distlock.lease-time");
                assertThat(analysis.getAction()).startsWith("Correct the property");
            });
        }
    }

    @Test
    void otherFailuresAreLeftToSpringBoot() {
        assertThat(analyzer.analyze(new IllegalStateException("not distlock's"))).isNull();
    }

    @Test
    void springBootFindsItInSpringFactories() {
        // Boot's own analyzers need constructor arguments: load without them, skipping those
        assertThat(SpringFactoriesLoader.forDefaultResourceLocation().load(FailureAnalyzer.class, null,
                SpringFactoriesLoader.FailureHandler.handleMessage((message, failure) -> { })))
                .anyMatch(DistlockStoreFailureAnalyzer.class::isInstance);
    }
}
