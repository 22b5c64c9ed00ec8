package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.Lock;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Calls that do not wait ignore the caller's interrupt flag, as {@link Lock#tryLock()} does, and keep it set for the
 * caller: a single attempt takes a free lock, a release frees it. Only waiting is interruptible.
 */
class InterruptedCallerTest {

    @RegisterExtension
    static final ClassFixture<TestingServer> server = new ClassFixture<>(TestServers::server);



    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private static LockStore open() {
        return LockStore.open(TestServers.uri(server.get().getConnectString(), "interrupted", Duration.ofSeconds(6),
                Duration.ofSeconds(5)));
    }

    @Test
    void tryAcquireOnAnInterruptedThreadTakesAFreeLock() {
        try (LockStore store = open(); LockStore other = open()) {
            Thread.currentThread().interrupt();
            Optional<Lease> lease = store.lock("free-try").tryAcquire();
            assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
            assertThat(lease).as("a free lock is taken whatever the interrupt flag").isPresent();
            assertThat(other.lock("free-try").tryAcquire()).as("and really held").isEmpty();
            lease.get().release();
        }
    }

    @Test
    void tryLockOnAnInterruptedThreadTakesAFreeLock() {
        try (LockStore store = open()) {
            Lock lock = store.lock("free-trylock").asLock();
            Thread.currentThread().interrupt();
            boolean locked = lock.tryLock();
            assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
            assertThat(locked).as("Lock.tryLock() ignores interruption").isTrue();
            lock.unlock();
        }
    }

    @Test
    void releaseOnAnInterruptedThreadSucceedsAndKeepsTheFlag() throws Exception {
        try (LockStore store = open(); LockStore other = open()) {
            Lease lease = store.lock("release-interrupted").acquire();
            Thread.currentThread().interrupt();
            lease.release();
            assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
            assertThat(other.lock("release-interrupted").tryAcquire()).as("the release reached the store")
                    .isPresent().get().satisfies(Lease::release);
        }
    }
}
