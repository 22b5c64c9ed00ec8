package io.distlock.cli.demo;

import io.distlock.LeaseModel;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The set-up the demo scenario tests share: a scenario's services run as separate JVMs on the shared Redis server,
 * with a temporary directory for their files and a run id of their own, and are stopped after each test.
 */
abstract class ScenarioOnSharedRedis {

    private static final String REDIS = "redis://127.0.0.1:6379";

    @TempDir
    Path dir;

    private final StringWriter printed = new StringWriter();
    private final ServiceGroup services = new ServiceGroup();

    @AfterEach
    void stopServices() {
        services.close();
    }

    /** A context for one scenario run with {@code model} leases and {@code serviceCount} services (0: its own). */
    DemoContext context(LeaseModel model, int serviceCount) {
        return new DemoContext(REDIS, dir, new PrintWriter(printed, true), UUID.randomUUID().toString().substring(0, 8),
                model, null, serviceCount, services);
    }
}
