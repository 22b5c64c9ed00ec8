package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.locks.Lock;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The Lock view does not keep threads that died holding it after their lease ended. */
class LockViewThreadsTest {

    @Test
    void aThreadThatDiedWithALostLeaseIsNotKeptByTheLockView() throws Exception {
        try (LockStore store = LockStore.open("mem:view-" + UUID.randomUUID())) {
            LockOptions expiring = LockOptions.defaults().withLeaseTime(Duration.ofMillis(200)).withAutoRenew(false);
            Lock view = store.lock("abandoned", expiring).asLock();
            Thread worker = new Thread(() -> assertThat(view.tryLock()).isTrue(), "dies-holding");
            worker.start();
            worker.join();
            WeakReference<Thread> dead = new WeakReference<>(worker);
            worker = null;
            Awaitility.await("the lease ran out").atMost(Duration.ofSeconds(10))
                    .until(() -> store.lock("abandoned").tryAcquire().map(l -> {
                        l.release();
                        return true;
                    }).orElse(false));
            Awaitility.await("the dead thread can be collected").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(100)).until(() -> {
                        System.gc();
                        return dead.get() == null;
                    });
            assertThat(view.toString()).contains("abandoned");
        }
    }
}
