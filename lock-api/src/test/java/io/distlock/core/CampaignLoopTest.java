package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.Leadership;
import io.distlock.LeadershipListener;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The campaign's own edges, on mem: a throwing listener, close() from the listener, a closed store. */
class CampaignLoopTest {

    private static final long PROMPTLY_MS = 3000;

    /** Records the listener's calls as "elected N" / "revoked N" and runs an optional action inside elected. */
    private static final class Events implements LeadershipListener {
        final BlockingQueue<String> seen = new LinkedBlockingQueue<>();
        final AtomicReference<Runnable> onElected = new AtomicReference<>(() -> { });

        @Override
        public void elected(Lease term) {
            seen.add("elected " + term.fencingToken() + " on " + Thread.currentThread().getName());
            onElected.get().run();
        }

        @Override
        public void revoked(Lease term) {
            seen.add("revoked " + term.fencingToken());
        }

        String next() throws InterruptedException {
            String e = seen.poll(PROMPTLY_MS, TimeUnit.MILLISECONDS);
            assertThat(e).as("a listener call").isNotNull();
            return e;
        }
    }

    @Test
    void electedRunsOnADistlockThreadAndAThrowingListenerKeepsTheTerm() throws InterruptedException {
        try (LockStore store = LockStore.open("mem:")) {
            Events events = new Events();
            events.onElected.set(() -> {
                throw new IllegalStateException("listener bug");
            });
            try (Leadership leadership = store.leadership("leader", events)) {
                assertThat(events.next()).startsWith("elected 1 on distlock-leadership-leader");
                assertThat(leadership.isLeader()).isTrue();
                assertThat(store.lock("leader").tryAcquire()).as("held by the campaign thread, not this one").isEmpty();
                assertThat(leadership.toString()).contains("leader, term 1");
            }
            assertThat(events.next()).isEqualTo("revoked 1");
        }
    }

    @Test
    void closeFromInsideElectedStepsDownAfterItReturns() throws InterruptedException {
        String space = "mem:campaign-" + UUID.randomUUID();
        try (LockStore store = LockStore.open(space); LockStore other = LockStore.open(space)) {
            Events events = new Events();
            AtomicReference<Leadership> self = new AtomicReference<>();
            CountDownLatch started = new CountDownLatch(1);
            events.onElected.set(() -> {
                try {
                    assertThat(started.await(PROMPTLY_MS, TimeUnit.MILLISECONDS)).isTrue();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                self.get().close(); // on the campaign thread: must not wait for itself
            });
            self.set(store.leadership("leader", events));
            started.countDown();
            assertThat(events.next()).startsWith("elected ");
            assertThat(events.next()).as("stepped down once elected returned").startsWith("revoked ");
            self.get().close(); // idempotent, and the campaign has ended
            assertThat(other.lock("leader").tryAcquire(Duration.ofMillis(PROMPTLY_MS))).isPresent().get()
                    .satisfies(Lease::release);
            assertThat(events.seen).isEmpty();
        }
    }

    @Test
    void closingTheStoreRevokesTheTermAndEndsTheCampaign() throws InterruptedException {
        LockStore store = LockStore.open("mem:");
        Events events = new Events();
        Leadership leadership = store.leadership("leader", events);
        assertThat(events.next()).startsWith("elected 1");
        store.close();
        assertThat(events.next()).isEqualTo("revoked 1");
        leadership.close(); // returns: the campaign ended when the store refused to acquire
        assertThat(leadership.isLeader()).isFalse();
        assertThat(events.seen).isEmpty();
    }
}
