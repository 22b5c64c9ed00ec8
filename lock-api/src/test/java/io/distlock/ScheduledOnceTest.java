package io.distlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Three "services" (stores of one mem: space) schedule the same task: each period it runs on exactly one. */
class ScheduledOnceTest {

    /** Long enough that the default minHeld (half of it) covers timer delays on a loaded 2-core machine. */
    private static final Duration PERIOD = Duration.ofMillis(1000);

    @Test
    void eachPeriodRunsOnExactlyOneService() {
        String space = "mem:scheduled-" + UUID.randomUUID();
        Map<Long, AtomicInteger> runsPerPeriod = new ConcurrentHashMap<>();
        List<String> journal = new CopyOnWriteArrayList<>();
        List<LockStore> stores = new ArrayList<>();
        List<ScheduledOnce> schedules = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                String service = "service " + i;
                LockStore store = LockStore.open(space);
                stores.add(store);
                schedules.add(ScheduledOnce.atFixedRate(store.lock("report"), PERIOD, lease -> {
                    long now = System.currentTimeMillis();
                    long period = now / PERIOD.toMillis();
                    journal.add("period " + period + " +" + now % PERIOD.toMillis() + " ms: " + service + ", token "
                            + lease.fencingToken());
                    runsPerPeriod.computeIfAbsent(period, p -> new AtomicInteger()).incrementAndGet();
                    return null; // a null result still counts as a run
                }));
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> runsPerPeriod.size() >= 4);
        } finally {
            schedules.forEach(ScheduledOnce::close);
            stores.forEach(LockStore::close);
        }
        assertThat(runsPerPeriod.values()).as("runs per period: " + journal).allSatisfy(n -> assertThat(n).hasValue(1));
        long ran = schedules.stream().mapToLong(ScheduledOnce::ran).sum();
        long skipped = schedules.stream().mapToLong(ScheduledOnce::skipped).sum();
        assertThat(ran).isEqualTo(runsPerPeriod.size());
        assertThat(skipped).as("the other two skipped each period they fired in").isGreaterThanOrEqualTo(2 * (ran - 1));
        assertThat(schedules).allSatisfy(s -> assertThat(s.failed()).isZero());
    }

    @Test
    void badArgumentsAreNamed() {
        try (LockStore store = LockStore.open("mem:")) {
            DistributedLock lock = store.lock("x");
            assertThatThrownBy(() -> ScheduledOnce.atFixedRate(lock, Duration.ZERO, lease -> null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("period");
            assertThatThrownBy(() -> ScheduledOnce.atFixedRate(lock, PERIOD, PERIOD, lease -> null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minHeld");
            assertThatThrownBy(() -> ScheduledOnce.atFixedRate(lock, PERIOD, Duration.ofMillis(-1), lease -> null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minHeld");
        }
    }
}
