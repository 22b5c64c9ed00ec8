package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.spi.Stores;
import io.distlock.tck.stub.StubBackend;
import io.distlock.tck.stub.StubSpace;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The core's yield point for test backends ({@link io.distlock.spi.CorePoints}), which the stub implements: a
 * background renewal reaches "renewal-claim" for its hold before its store call, so the interleaving explorer can stop
 * it between its look at the hold and its claim of the hold's store calls.
 */
class CorePointsTest {

    private final StubSpace space = new StubSpace();
    private final StubBackend backend = new StubBackend(space);
    private final LockStore store = Stores.over(backend, "stub with core points");

    @AfterEach
    void cleanUp() {
        store.close();
    }

    @Test
    void aBackgroundRenewalReachesItsClaimPointBeforeItsStoreCall() throws InterruptedException {
        List<String> points = new CopyOnWriteArrayList<>();
        backend.probe((client, point, name, grant) -> points.add(point + "(" + name + ")"));
        Lease lease = store.lock("renewed", LockOptions.defaults().withLeaseTime(Duration.ofMillis(600))).acquire();
        Awaitility.await("a background renewal of the 600 ms lease").atMost(Duration.ofSeconds(5))
                .until(() -> points.contains("renewed(renewed)"));
        lease.release();
        assertThat(points).as("the stub's points up to the first renewal").contains("renewal-claim(renewed)");
        List<String> renewal = points.subList(points.indexOf("renewal-claim(renewed)"), points.size());
        assertThat(renewal).as("the points of the first renewal, in order").startsWith("renewal-claim(renewed)",
                "renew(renewed)", "renewed(renewed)");
    }
}
