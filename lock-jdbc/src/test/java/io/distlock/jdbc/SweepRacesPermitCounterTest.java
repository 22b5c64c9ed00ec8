package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.Grant;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Adversarial: the sweep of unused names ({@link RowSweeper}) racing the first acquire of a semaphore name. A
 * semaphore's first acquire finds no counter row, inserts one with fence 0 and tries again; a fence of 0 is far below
 * the clock and no permit is held yet, so a sweep that runs in between deletes that fresh counter, the second try
 * finds no counter again, and a try-acquire of a semaphore nobody ever used is refused.
 */
@ExtendWith(Databases.class)
class SweepRacesPermitCounterTest {

    private static final int NAMES = 150;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.Stores#all")
    void aTryAcquireOfANeverUsedSemaphoreIsNotRefusedWhileTheSweepRuns(String label, String uri) throws Exception {
        try (JdbcBackend backend = (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri))) {
            // the permit table exists once a semaphore was used
            backend.releasePermit(backend.acquirePermit("probe", 1, Duration.ofSeconds(1), Wait.none()));
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> sweepFailure = new AtomicReference<>();
            Thread sweeper = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        backend.sweepNow();
                    }
                } catch (Throwable t) {
                    sweepFailure.set(t);
                }
            }, "test-sweeper");
            sweeper.start();
            List<String> refused = new ArrayList<>();
            try {
                for (int i = 0; i < NAMES; i++) {
                    String name = "fresh-" + i;
                    Grant grant = backend.acquirePermit(name, 1, Duration.ofSeconds(30), Wait.none());
                    if (grant == null) {
                        refused.add(name);
                    } else {
                        backend.releasePermit(grant);
                    }
                }
            } finally {
                stop.set(true);
                sweeper.join();
            }
            assertThat(sweepFailure.get()).as("sweep failure on %s", label).isNull();
            assertThat(refused).as("try-acquires of never-used, free semaphores refused on %s while the sweep ran",
                    label).isEmpty();
        }
    }
}
