package io.distlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code runIfFree} tells "skipped" from "ran" whatever the work returns: {@code tryRun}'s empty result means either
 * that the lock was held elsewhere or that the task returned null.
 */
class RunIfFreeTest {

    @Test
    void ranAndSkippedAreTwoAnswers() throws Exception {
        try (LockStore store = LockStore.open("mem:" + UUID.randomUUID())) {
            DistributedLock lock = store.lock("nightly-report");
            AtomicInteger runs = new AtomicInteger();

            assertThat(lock.runIfFree(Duration.ZERO, lease -> runs.incrementAndGet())).as("free: ran").isTrue();
            assertThat(runs).hasValue(1);

            try (Lease held = lock.acquire()) {
                boolean ranElsewhere = CompletableFuture.supplyAsync(() -> {
                    try {
                        return store.lock("nightly-report").runIfFree(Duration.ZERO, lease -> runs.incrementAndGet());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }).get(10, TimeUnit.SECONDS);
                assertThat(ranElsewhere).as("held elsewhere: skipped").isFalse();
            }
            assertThat(runs).as("the skipped work did not run").hasValue(1);

            Optional<Object> nullResult = lock.tryRun(lease -> null);
            assertThat(nullResult).as("tryRun of a task returning null: empty, though it ran").isEmpty();
        }
    }
}
