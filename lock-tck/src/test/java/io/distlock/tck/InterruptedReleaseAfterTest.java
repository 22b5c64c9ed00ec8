package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import io.distlock.spi.Stores;
import io.distlock.tck.stub.StubBackend;
import io.distlock.tck.stub.StubSpace;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * releaseAfter on an interrupted thread, over a store client that gives up on one (as Jedis and JDBC drivers do):
 * its store call (moving the expiry to the minimum hold) runs without the interrupt flag, as a release's does, so the
 * lock is freed at its minimum hold and the caller keeps its flag. Found by the interleaving explorer (INTERRUPT,
 * seed 118).
 */
class InterruptedReleaseAfterTest {

    private final StubSpace space = new StubSpace();
    private final StubBackend backend = new StubBackend(space);
    private final LockStore store = Stores.over(backend, "interrupt-shy stub");

    @AfterEach
    void cleanUp() {
        Thread.interrupted();
        store.close();
    }

    @Test
    void releaseAfterOnAnInterruptedThreadFreesTheLockAtItsMinimumHold() throws Exception {
        backend.probe((client, point, name, grant) -> {
            if (Thread.currentThread().isInterrupted() && !point.equals("granted")) {
                throw new StoreUnavailableException("the store client gave up on " + point + "(" + name
                        + "): the calling thread is interrupted");
            }
        });
        Lease lease = store.lock("shy", LockOptions.defaults().withLeaseTime(Duration.ofSeconds(30))).acquire();
        Thread.currentThread().interrupt();
        assertThatCode(() -> lease.releaseAfter(Duration.ofSeconds(2)))
                .as("releaseAfter on an interrupted thread").doesNotThrowAnyException();
        assertThat(Thread.currentThread().isInterrupted()).as("the caller keeps its interrupt").isTrue();
        Thread.interrupted();
        Awaitility.await("the lock is freed at its minimum hold, not at the 30 s lease's end")
                .atMost(Duration.ofSeconds(8))
                .until(() -> space.holderToken("shy") == null);
    }
}
