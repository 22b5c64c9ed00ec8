package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;

/**
 * On Java 21+, 200 virtual threads each take a lock and a permit and free them with releaseAfter: every delayed
 * release runs (nothing pending, every name free again) and JFR records no pinned virtual thread in the releaseAfter
 * path or the delayed releases. Skipped with the reason on Java 17.
 */
class VirtualThreadsReleaseAfterTest {

    private static final int THREADS = 200;

    @Test
    void virtualThreadsReleaseAfterWithoutPinning() throws Exception {
        ExecutorService virtual = VirtualThreads.executor();
        String space = "mem:virtual-release-after-" + UUID.randomUUID();
        LockOptions options = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(30));
        Path jfr = Files.createTempFile("release-after-pinning", ".jfr");
        try (Recording recording = new Recording();
             BackendLockStore store = (BackendLockStore) LockStore.open(space);
             LockStore other = LockStore.open(space)) {
            // once on this thread first, so the path's classes are loaded: a first class load pins once, harmlessly
            store.lock("vt-after-warm-up", options).acquire().releaseAfter(Duration.ofMillis(200));
            store.semaphore("vt-after-warm-up", 1, options).acquire().releaseAfter(Duration.ofMillis(200));
            recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
            recording.start();
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                String name = "vt-after-" + i;
                futures.add(virtual.submit(() -> {
                    store.lock(name, options).acquire().releaseAfter(Duration.ofMillis(200));
                    store.semaphore(name, 1, options).acquire().releaseAfter(Duration.ofMillis(200));
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(2, TimeUnit.MINUTES);
            }
            await().atMost(Duration.ofMinutes(1)).until(() -> store.delayedReleasesPending() == 0);
            for (int i = 0; i < THREADS; i += 37) {
                try (Lease lock = other.lock("vt-after-" + i).tryAcquire().orElseThrow();
                     Lease permit = other.semaphore("vt-after-" + i, 1).tryAcquire().orElseThrow()) {
                    assertThat(lock.isValid() && permit.isValid()).isTrue();
                }
            }
            recording.stop();
            recording.dump(jfr);
            List<String> pinned = new ArrayList<>();
            List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
            System.out.println("virtual threads: " + THREADS + " locks and permits released after 200 ms; "
                    + events.size() + " pinned events recorded in the whole JVM");
            for (RecordedEvent event : events) {
                String stack = event.getStackTrace() == null ? "" : event.getStackTrace().getFrames().stream()
                        .map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName())
                        .collect(java.util.stream.Collectors.joining(" < "));
                if (stack.contains("releaseHoldAfter") || stack.contains("DelayedReleases")) {
                    pinned.add(stack);
                }
            }
            assertThat(pinned).as("virtual threads pinned in releaseAfter").isEmpty();
        } finally {
            virtual.shutdownNow();
            Files.deleteIfExists(jfr);
        }
    }
}
