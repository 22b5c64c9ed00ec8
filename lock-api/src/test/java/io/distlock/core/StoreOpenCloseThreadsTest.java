package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A store opened and closed 1,000 times on the real mem: store, a third of them after a releaseAfter (which starts
 * the delayed-release thread), leaves no distlock thread behind: each store's threads end with its close.
 */
class StoreOpenCloseThreadsTest {

    private static final int STORES = 1_000;

    @Test
    void aThousandStoresOpenedAndClosedLeaveNoThreadBehind() throws Exception {
        String space = "mem:open-close-threads-" + UUID.randomUUID(); // in the store's threads' names
        LockOptions options = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(30));
        int peak = 0;
        for (int i = 0; i < STORES; i++) {
            try (LockStore store = LockStore.open(space)) {
                if (i % 3 == 0) {
                    store.lock("open-close-" + i, options).acquire().releaseAfter(Duration.ofMinutes(1));
                } else {
                    store.lock("open-close-" + i, options).acquire().release();
                }
                peak = Math.max(peak, threadsOf(space).size());
            }
        }
        System.out.println("stores opened and closed: " + STORES + "; distlock threads at most " + peak
                + " while one was open");
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(threadsOf(space))
                .as("threads of the closed stores still alive").isEmpty());
        assertThat(peak).as("threads of one open store").isBetween(1, 9);
    }

    /** The live distlock threads of the stores on {@code space} (other tests' stores are left out). */
    private static List<String> threadsOf(String space) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("distlock-") && n.contains(space)).collect(Collectors.toList());
    }
}
