package io.distlock.mem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.spi.Grant;
import io.distlock.spi.OthersWaiting;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a mem: hand-over tells of other clients' waiters: one waiting when the holder is swapped is reported, one that
 * gave up is not, and one that began to wait after a hand-over is reported by the next one. The lock never goes to
 * the waiter while it is handed over.
 */
class MemHandOverWaitersTest {

    private static final Duration LEASE = Duration.ofSeconds(30);

    private final MemSpace space = new MemSpace();
    private final MemBackend mine = new MemBackend(space);
    private final MemBackend theirs = new MemBackend(space);
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
        mine.close();
        theirs.close();
    }

    @Test
    void aHandOverReportsAnotherClientsWaiterWhileItWaitsAndNotOnceItGaveUp() throws Exception {
        Grant held = mine.acquire("n", LEASE, Wait.none());
        Future<Grant> waiting = waitInTheirStore("n");

        Grant whileWaiting = mine.handOver(held, LEASE, Thread.currentThread());
        assertThat(whileWaiting.othersWaiting()).as("another client waits").isEqualTo(OthersWaiting.YES);
        assertThat(whileWaiting.fencingToken()).isGreaterThan(held.fencingToken());

        waiting.cancel(true); // the waiter is interrupted and gives up
        assertThatThrownBy(() -> waiting.get(20, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> !space.signals.hasWaiters("n"));

        Grant afterItLeft = mine.handOver(whileWaiting, LEASE, Thread.currentThread());
        assertThat(afterItLeft.othersWaiting()).as("the waiter has left").isEqualTo(OthersWaiting.NO);
        assertThat(afterItLeft.fencingToken()).isGreaterThan(whileWaiting.fencingToken());
        assertThat(mine.release(afterItLeft)).isTrue();
    }

    @Test
    void aWaiterThatBeginsAfterAHandOverIsReportedByTheNextAndGetsTheLockOnlyWhenItIsFreed() throws Exception {
        Grant held = mine.acquire("m", LEASE, Wait.none());
        Grant beforeTheWaiter = mine.handOver(held, LEASE, Thread.currentThread());
        assertThat(beforeTheWaiter.othersWaiting()).as("nobody waits yet").isEqualTo(OthersWaiting.NO);

        Future<Grant> waiting = waitInTheirStore("m");

        // the grant made before the waiter came keeps its answer; the next hand-over is the one that sees it
        Grant next = mine.handOver(beforeTheWaiter, LEASE, Thread.currentThread());
        assertThat(next.othersWaiting()).as("the waiter that came during the previous hold").isEqualTo(
                OthersWaiting.YES);
        assertThat(waiting.isDone()).as("handed over: never free for the waiter").isFalse();

        assertThat(mine.release(next)).isTrue();
        Grant theirsNow = waiting.get(20, TimeUnit.SECONDS);
        assertThat(theirsNow.fencingToken()).isGreaterThan(next.fencingToken());
        assertThat(mine.handOver(next, LEASE, Thread.currentThread())).as("the released grant hands nothing over")
                .isNull();
        assertThat(theirs.release(theirsNow)).isTrue();
    }

    /** A thread of the other client acquiring {@code name} without limit, once its release ticket is taken. */
    private Future<Grant> waitInTheirStore(String name) {
        Future<Grant> waiting = pool.submit(() -> theirs.acquire(name, LEASE, Wait.forever()));
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> space.signals.hasWaiters(name));
        return waiting;
    }
}
