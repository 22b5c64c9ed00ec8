package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.Leadership;
import io.distlock.LeadershipListener;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * On Java 21+, virtual threads use tryRun and leadership in numbers: one task at a time per lock, every attempt
 * either run or skipped, and campaigns opened and closed from virtual threads never make two leaders. Skipped with
 * the reason on Java 17.
 */
class VirtualThreadsRunOnceTest {

    @Test
    void thousandsOfVirtualThreadsTryRunAndCampaign() throws Exception {
        ExecutorService virtual = VirtualThreads.executor();
        String space = "mem:virtual-run-once-" + UUID.randomUUID();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        AtomicInteger ran = new AtomicInteger();
        AtomicInteger skipped = new AtomicInteger();
        AtomicInteger leaders = new AtomicInteger();
        AtomicInteger maxLeaders = new AtomicInteger();
        AtomicInteger terms = new AtomicInteger();
        try (LockStore store = LockStore.open(space); LockStore other = LockStore.open(space)) {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                LockStore client = i % 2 == 0 ? store : other;
                futures.add(virtual.submit(() -> {
                    boolean didRun = client.lock("vt-job").tryRun(Duration.ZERO, lease -> {
                        maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                        Thread.yield();
                        inside.decrementAndGet();
                        return true;
                    }).isPresent();
                    (didRun ? ran : skipped).incrementAndGet();
                    return null;
                }));
            }
            for (int i = 0; i < 50; i++) {
                LockStore client = i % 2 == 0 ? store : other;
                futures.add(virtual.submit(() -> {
                    CountDownLatch wasLeader = new CountDownLatch(1);
                    LeadershipListener listener = new LeadershipListener() {
                        @Override
                        public void elected(Lease term) {
                            maxLeaders.accumulateAndGet(leaders.incrementAndGet(), Math::max);
                            terms.incrementAndGet();
                            wasLeader.countDown();
                        }

                        @Override
                        public void revoked(Lease term) {
                            leaders.decrementAndGet();
                        }
                    };
                    try (Leadership leadership = client.leadership("vt-leader", listener)) {
                        assertThat(wasLeader.await(2, TimeUnit.MINUTES)).as("each campaign wins a term").isTrue();
                        assertThat(leadership.isLeader()).isTrue();
                    } // steps down: the next campaign wins
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            virtual.shutdownNow();
        }
        assertThat(ran.get() + skipped.get()).isEqualTo(2000);
        assertThat(ran.get()).isPositive();
        assertThat(maxInside.get()).isEqualTo(1);
        assertThat(maxLeaders.get()).as("leaders at once, counting a leader until its revoked").isEqualTo(1);
        assertThat(leaders.get()).as("every term revoked by close()").isZero();
        assertThat(terms.get()).as("one term per campaign").isEqualTo(50);
        System.out.println("virtual threads: tryRun ran " + ran + ", skipped " + skipped + "; " + terms
                + " leadership terms from 50 campaigns");
    }
}
