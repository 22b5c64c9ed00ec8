package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * On Java 21+, thousands of virtual threads contend for a few locks without deadlock or starvation: waiting in the
 * core uses j.u.c. locks and semaphores, never a monitor held across a blocking call. Reflection keeps the build at
 * Java 17; on 17 the test is skipped with the reason.
 */
class VirtualThreadsTest {

    @Test
    void thousandsOfVirtualThreadsShareAFewLocks() throws Exception {
        ExecutorService virtual = VirtualThreads.executor();
        String space = "mem:virtual-" + UUID.randomUUID();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        try (LockStore store = LockStore.open(space)) {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                String name = "vt-" + (i % 4);
                boolean counted = i % 4 == 0;
                futures.add(virtual.submit(() -> {
                    try (Lease lease = store.lock(name).acquire()) {
                        if (counted) {
                            maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            Thread.yield();
                            inside.decrementAndGet();
                        }
                        done.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            virtual.shutdownNow();
        }
        assertThat(done.get()).isEqualTo(2000);
        assertThat(maxInside.get()).isEqualTo(1);
    }
}
