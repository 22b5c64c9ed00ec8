package io.distlock.bench.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Against the shared MariaDB: two stores on one URL wake each other's waiters in-process, two stores on
 * {@link SeparateClientUri} spellings do not (the waiter hears of the release only by its poll, set to a minute
 * here, so it gets the lock at the end of its wait), as two separate services would.
 */
class SeparateClientUriTest {

    private static final String URI = "jdbc:mariadb://127.0.0.1:3306/test?user=root"
            + "&distlock.pollMinMillis=60s&distlock.pollMaxMillis=60s";
    private static final Duration WAIT = Duration.ofSeconds(4);

    @Test
    void spellingsDifferOnlyByALabelParameter() {
        assertThat(SeparateClientUri.of("jdbc:mariadb://h:3306/test?user=root", 3))
                .isEqualTo("jdbc:mariadb://h:3306/test?user=root&connectionAttributes=bench_client:3");
        assertThat(SeparateClientUri.of("jdbc:postgresql://h:5432/test", 0))
                .isEqualTo("jdbc:postgresql://h:5432/test?ApplicationName=distlock-bench-client-0");
        assertThat(SeparateClientUri.of("redis://h:6379", 1)).isEqualTo("redis://h:6379");
    }

    @Test
    void storesOnOneUrlWakeEachOthersWaiters() throws Exception {
        Waited waited = waitBehind(URI, URI);

        assertThat(Duration.ofNanos(waited.afterRelease())).as("waiter's acquire after the release")
                .isLessThan(WAIT.dividedBy(2));
    }

    @Test
    void storesOnSeparateSpellingsDoNotWakeEachOthersWaiters() throws Exception {
        Waited waited = waitBehind(SeparateClientUri.of(URI, 0), SeparateClientUri.of(URI, 1));

        assertThat(Duration.ofNanos(waited.total())).as("waiter's whole wait (no in-process wake-up, poll 60 s)")
                .isGreaterThanOrEqualTo(WAIT);
    }

    private record Waited(long total, long afterRelease) {
    }

    /** The holder takes a lock, the waiter waits for it up to {@link #WAIT}; the holder releases once it waits. */
    private static Waited waitBehind(String holderUri, String waiterUri) throws Exception {
        try (LockStore holder = LockStore.open(holderUri); LockStore waiter = LockStore.open(waiterUri)) {
            String name = "bench-test:" + UUID.randomUUID();
            Lease lease = holder.lock(name).acquire();
            FutureTask<Optional<Lease>> task = new FutureTask<>(() -> waiter.lock(name).tryAcquire(WAIT));
            Thread thread = new Thread(task, "bench-test-waiter");
            long start = System.nanoTime();
            thread.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> parkedForARelease(thread));
            lease.release();
            long released = System.nanoTime();
            Optional<Lease> got = task.get(30, TimeUnit.SECONDS);
            long done = System.nanoTime();
            assertThat(got).as("the waiter's lease").isPresent();
            got.get().release();
            return new Waited(done - start, done - released);
        }
    }

    /** Whether {@code thread} sleeps in distlock's wait for a release signal (after a failed attempt). */
    private static boolean parkedForARelease(Thread thread) {
        return thread.getState() == Thread.State.TIMED_WAITING && Arrays.stream(thread.getStackTrace())
                .anyMatch(f -> f.getClassName().startsWith("io.distlock.spi.ReleaseSignals"));
    }
}
