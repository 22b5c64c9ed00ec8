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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The campaign's own edges, on mem: a throwing listener, close() from the listener, a closed store, close() from an
 * interrupted thread.
 */
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

    /**
     * close() waits for the campaign thread to step down even when its caller is interrupted (before and during the
     * wait), and gives the caller its flag back; once the campaign has ended, close() returns at once, flag kept.
     */
    @Test
    void closeFromAnInterruptedThreadWaitsForTheStepDownAndKeepsTheFlag() throws InterruptedException {
        try (LockStore store = LockStore.open("mem:")) {
            CountDownLatch elected = new CountDownLatch(1);
            CountDownLatch inRevoked = new CountDownLatch(1);
            CountDownLatch endRevoked = new CountDownLatch(1);
            Leadership leadership = store.leadership("leader", new LeadershipListener() {
                @Override
                public void elected(Lease term) {
                    elected.countDown();
                }

                @Override
                public void revoked(Lease term) {
                    inRevoked.countDown();
                    try {
                        endRevoked.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        throw new AssertionError("the campaign thread was interrupted in revoked", e);
                    }
                }
            });
            assertThat(elected.await(PROMPTLY_MS, TimeUnit.MILLISECONDS)).isTrue();
            CountDownLatch closeReturned = new CountDownLatch(1);
            AtomicBoolean flagAfterClose = new AtomicBoolean();
            Thread closer = new Thread(() -> {
                Thread.currentThread().interrupt();
                leadership.close();
                flagAfterClose.set(Thread.currentThread().isInterrupted());
                closeReturned.countDown();
            }, "closer");
            closer.start();
            assertThat(inRevoked.await(PROMPTLY_MS, TimeUnit.MILLISECONDS)).as("stepping down").isTrue();
            closer.interrupt(); // again, while close waits for the campaign thread
            assertThat(closeReturned.await(200, TimeUnit.MILLISECONDS)).as("close returned before the step-down ended")
                    .isFalse();
            endRevoked.countDown();
            assertThat(closeReturned.await(PROMPTLY_MS, TimeUnit.MILLISECONDS)).as("close returned").isTrue();
            assertThat(flagAfterClose).as("the closer's interrupt flag after close").isTrue();
            closer.join(PROMPTLY_MS);

            Thread.currentThread().interrupt();
            leadership.close(); // the campaign has ended: nothing to wait for
            assertThat(Thread.interrupted()).as("this thread's flag after a second close").isTrue();
        }
    }
}
