package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.ReleaseSignals;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On the machine's PostgreSQL, a release wakes one of the stores that announced they wait for the name, not all of
 * them (every store that is woken retries against the database, and all but one lose), taking them in turn; a store
 * told of a release after its waiter left passes the notice on to every store. Each store here is a
 * {@link PostgresNotices} of its own with its own signals, as stores of separate processes are.
 */
@ExtendWith(Databases.class)
class AimedNoticesTest {

    private static final long NOT_TOLD_WINDOW_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long TOLD_BOUND_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final NoticeStores stores = new NoticeStores("aimed");

    @AfterEach
    void closeAll() {
        stores.close();
    }

    @Test
    void aReleaseWakesOneWaitingStoreAndTheNextReleaseTheOther() throws Exception {
        String name = "aimed:one";
        PostgresNotices holder = stores.open(new ReleaseSignals(), "holder");
        ReleaseSignals bSignals = new ReleaseSignals();
        ReleaseSignals cSignals = new ReleaseSignals();
        PostgresNotices b = stores.open(bSignals, "b");
        PostgresNotices c = stores.open(cSignals, "c");
        try (ReleaseSignals.Ticket bWaits = bSignals.ticket(name); ReleaseSignals.Ticket cWaits = cSignals.ticket(name)) {
            b.waiting(name);
            c.waiting(name);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> holder.announcers(name) == 2);

            holder.released(name);
            boolean bFirst = told(bWaits, cWaits);

            holder.released(name);
            boolean bSecond = told(bWaits, cWaits);
            assertThat(bSecond).as("the second release tells the store the first did not").isNotEqualTo(bFirst);
        }
    }

    @Test
    void aStoreToldAfterItsWaiterLeftTellsEveryStore() throws Exception {
        String name = "aimed:left";
        PostgresNotices holder = stores.open(new ReleaseSignals(), "holder");
        ReleaseSignals leftSignals = new ReleaseSignals();
        PostgresNotices left = stores.open(leftSignals, "left");
        ReleaseSignals quietSignals = new ReleaseSignals();
        stores.open(quietSignals, "quiet");
        try (ReleaseSignals.Ticket quietWaits = quietSignals.ticket(name)) {
            try (ReleaseSignals.Ticket leaving = leftSignals.ticket(name)) {
                left.waiting(name);
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> holder.announcers(name) == 1);
            }
            holder.released(name); // told: the store that left, the only one that announced
            assertThat(quietWaits.await(TOLD_BOUND_NANOS))
                    .as("a waiter that never announced, woken when the store told passes the notice on").isTrue();
        }
    }

    /**
     * Whether {@code b} (true) or {@code c} (false) was told of the release: exactly one is woken within the bound,
     * and the other not within a second after that.
     */
    private static boolean told(ReleaseSignals.Ticket b, ReleaseSignals.Ticket c) throws InterruptedException {
        long deadline = System.nanoTime() + TOLD_BOUND_NANOS;
        boolean bWoken = false;
        boolean cWoken = false;
        while (!bWoken && !cWoken && System.nanoTime() - deadline < 0) {
            bWoken = b.await(TimeUnit.MILLISECONDS.toNanos(20));
            cWoken = c.await(0);
        }
        assertThat(bWoken || cWoken).as("a waiting store told of the release within 5 s").isTrue();
        boolean otherWoken = bWoken ? c.await(NOT_TOLD_WINDOW_NANOS) : b.await(NOT_TOLD_WINDOW_NANOS);
        assertThat(bWoken && cWoken || otherWoken).as("both waiting stores told of one release").isFalse();
        return bWoken;
    }
}
