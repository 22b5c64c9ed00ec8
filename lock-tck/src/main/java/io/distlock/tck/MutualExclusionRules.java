package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.check.CriticalSection;
import io.distlock.tck.check.HistoryChecker;
import io.distlock.tck.check.HistoryReport;
import io.distlock.tck.check.SharedCounter;
import io.distlock.tck.fixture.TempDirs;
import io.distlock.tck.process.FileCounter;
import io.distlock.tck.process.LockClientProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** §1 Mutual exclusion: at most one holder of a name at any time, whoever and wherever the contenders are. */
public interface MutualExclusionRules extends TckSupport {

    @Test
    @DisplayName("§1.1 clients x threads x rounds on one name: no overlap, no lost update, increasing tokens")
    default void rule_1_1_mutualExclusionAcrossClientsAndThreads() throws Exception {
        int clients = 3;
        int threadsPerClient = 3;
        int rounds = 15;
        String name = tck().name("counter");
        SharedCounter counter = new SharedCounter();
        List<CriticalSection> sections = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(clients * threadsPerClient);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                LockStore store = tck().client();
                for (int t = 0; t < threadsPerClient; t++) {
                    String label = "c" + c + "t" + t;
                    futures.add(pool.submit(() -> {
                        start.await();
                        for (int r = 0; r < rounds; r++) {
                            try (Lease lease = store.lock(name).acquire()) {
                                long enter = System.nanoTime();
                                counter.slowIncrement(TimeUnit.MICROSECONDS.toNanos(200));
                                sections.add(new CriticalSection(name, label, enter, System.nanoTime(),
                                        lease.fencingToken()));
                            }
                        }
                        return null;
                    }));
                }
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        long expected = (long) clients * threadsPerClient * rounds;
        HistoryReport report = HistoryChecker.check(sections, expected, counter.value());
        assertThat(report.isClean()).as(report.toString()).isTrue();
        assertThat(report.sections()).isEqualTo(expected);
    }

    @Test
    @DisplayName("§1.2 separate JVMs and this one on one name: no overlap, no lost update on a shared file")
    default void rule_1_2_mutualExclusionAcrossJvms() throws Exception {
        Tck.assumeSeparateJvms(tck());
        String name = tck().name("jvm counter");
        Path dir = TempDirs.create("tck-counter");
        Path file = dir.resolve("counter");
        int rounds = 15;
        List<CriticalSection> sections = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (LockClientProcess a = LockClientProcess.start(tck().storeUri(), "jvmA");
             LockClientProcess b = LockClientProcess.start(tck().storeUri(), "jvmB")) {
            LockStore local = tck().client();
            FileCounter counter = new FileCounter(file);
            Future<List<CriticalSection>> fa = pool.submit(
                    () -> a.work(name, rounds, file, Duration.ofMillis(2), Duration.ofMinutes(4)));
            Future<List<CriticalSection>> fb = pool.submit(
                    () -> b.work(name, rounds, file, Duration.ofMillis(2), Duration.ofMinutes(4)));
            Future<?> fl = pool.submit(() -> {
                for (int r = 0; r < rounds; r++) {
                    try (Lease lease = local.lock(name).acquire()) {
                        long enter = System.nanoTime();
                        counter.slowIncrement(Duration.ofMillis(2));
                        sections.add(new CriticalSection(name, "local", enter, System.nanoTime(),
                                lease.fencingToken()));
                    }
                }
                return null;
            });
            sections.addAll(fa.get(5, TimeUnit.MINUTES));
            sections.addAll(fb.get(5, TimeUnit.MINUTES));
            fl.get(5, TimeUnit.MINUTES);
            HistoryReport report = HistoryChecker.check(sections, 3L * rounds, counter.read());
            assertThat(report.isClean()).as(report.toString()).isTrue();
        } finally {
            pool.shutdownNow();
            TempDirs.delete(dir);
        }
    }

    @Test
    @DisplayName("§1.3 distinct names are independent: holding one does not block another")
    default void rule_1_3_distinctNamesAreIndependent() {
        LockStore a = tck().client();
        LockStore b = tck().client();
        try (Lease first = a.lock(tck().name("one")).tryAcquire().orElseThrow()) {
            assertThat(b.lock(tck().name("two")).tryAcquire()).as("a different name held elsewhere").isPresent()
                    .get().satisfies(Lease::release);
            assertThat(first.isValid()).isTrue();
        }
    }
}
