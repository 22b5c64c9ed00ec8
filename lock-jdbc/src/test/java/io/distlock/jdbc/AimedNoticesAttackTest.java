package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.ReleaseSignals;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Attacks on PostgreSQL's aimed release notices ({@link PostgresNotices}), on the machine's PostgreSQL: a told store
 * whose waiter is between two attempts, announcements of stores that are gone, and a peer on the table's channel
 * whose announcement names an id no channel can carry. Each store is a {@link PostgresNotices} of its own with its
 * own signals, as stores of separate processes are; a peer's announcements are sent with {@code pg_notify}.
 */
@ExtendWith(Databases.class)
class AimedNoticesAttackTest {

    private static final long TOLD_BOUND_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long NOT_TOLD_WINDOW_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final NoticeStores stores = new NoticeStores("aimed_attack");

    @AfterEach
    void closeAll() {
        stores.close();
    }

    /** Sends {@code payloads} on the table's channel in one transaction, as a peer of the table would. */
    private void peerSends(List<String> payloads) throws Exception {
        try (Connection c = DriverManager.getConnection(Databases.postgres());
             PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, p) FROM unnest(?::text[]) AS p")) {
            ps.setString(1, PostgresNotices.channel(stores.table()));
            ps.setArray(2, c.createArrayOf("text", payloads.toArray()));
            ps.execute();
        }
    }

    /**
     * The told store's waiter is not parked but between two attempts (its ticket taken, its attempt in flight): the
     * notice is kept for it (its next wait returns at once), and not passed on to every store.
     */
    @Test
    void aToldStoreWhoseWaiterIsBetweenAttemptsKeepsTheNotice() throws Exception {
        String name = "attack:mid";
        PostgresNotices holder = stores.open(new ReleaseSignals(), "holder");
        ReleaseSignals midSignals = new ReleaseSignals();
        PostgresNotices mid = stores.open(midSignals, "mid");
        ReleaseSignals quietSignals = new ReleaseSignals();
        stores.open(quietSignals, "quiet");
        try (ReleaseSignals.Ticket quietWaits = quietSignals.ticket(name);
             ReleaseSignals.Ticket attempting = midSignals.ticket(name)) {
            mid.waiting(name);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> holder.announcers(name) == 1);
            holder.released(name);
            // the waiter never parks: it looks for the signal the way its next wait would, without waiting
            Awaitility.await().atMost(Duration.ofNanos(TOLD_BOUND_NANOS)).pollInterval(Duration.ofMillis(10))
                    .until(() -> attempting.await(0));
            assertThat(quietWaits.await(NOT_TOLD_WINDOW_NANOS))
                    .as("a store that never announced, told although the told store's waiter was there").isFalse();
        }
    }

    /**
     * Names as a hostile caller picks them, up to the store's longest (255 characters): spaces (the notices are
     * space-separated), a trailing space, characters outside the BMP; each is aimed at the waiting store and wakes
     * its waiter.
     */
    @Test
    void oddNamesAreToldToTheirWaiters() throws Exception {
        PostgresNotices holder = stores.open(new ReleaseSignals(), "holder");
        ReleaseSignals waiterSignals = new ReleaseSignals();
        PostgresNotices waiter = stores.open(waiterSignals, "waiter");
        String lock = "\uD83D\uDD12";
        List<String> names = List.of("a b  c ", " r x y", "w 1 2", "\u00fc\u00e9 " + lock,
                (lock + " ").repeat(85), "x".repeat(JdbcBackend.MAX_NAME_LENGTH));
        for (String name : names) {
            try (ReleaseSignals.Ticket waits = waiterSignals.ticket(name)) {
                waiter.waiting(name);
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> holder.announcers(name) == 1);
                holder.released(name);
                assertThat(waits.await(TOLD_BOUND_NANOS)).as("the waiter of '%s' woken", name).isTrue();
            }
        }
    }

    /**
     * A store that announced it waits and then closed is told of the next release in its turn; nobody hears that
     * notice, and a waiter of another store that announced too must not wait for its poll.
     */
    @Test
    void aToldStoreThatClosedCostsTheOtherWaiterNoPoll() throws Exception {
        String name = "attack:closed";
        PostgresNotices holder = stores.open(new ReleaseSignals(), "holder");
        ReleaseSignals goneSignals = new ReleaseSignals();
        PostgresNotices gone = stores.open(goneSignals, "gone");
        ReleaseSignals waiterSignals = new ReleaseSignals();
        PostgresNotices waiter = stores.open(waiterSignals, "waiter");
        try (ReleaseSignals.Ticket waits = waiterSignals.ticket(name)) {
            try (ReleaseSignals.Ticket leaving = goneSignals.ticket(name)) {
                gone.waiting(name);
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> holder.announcers(name) == 1);
            }
            waiter.waiting(name); // heard after the store that goes: the first release is aimed at that one
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> holder.announcers(name) == 2);
            gone.close();
            holder.released(name);
            assertThat(waits.await(TOLD_BOUND_NANOS))
                    .as("the waiter of the open store woken within 5 s of a release aimed at a closed store")
                    .isTrue();
        }
    }

    /**
     * A store opened (or listening again) after another store's waiter announced a name hears of that waiter within
     * seconds, not when the waiter announces again at its next poll: else its release of the name would tell nobody.
     */
    @Test
    void aStoreOpenedWhileAnotherWaitsLearnsOfItsWaiter() throws Exception {
        String name = "attack:late";
        PostgresNotices witness = stores.open(new ReleaseSignals(), "witness");
        ReleaseSignals waiterSignals = new ReleaseSignals();
        PostgresNotices waiter = stores.open(waiterSignals, "waiter");
        try (ReleaseSignals.Ticket waits = waiterSignals.ticket(name)) {
            waiter.waiting(name);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> witness.announcers(name) == 1);
            PostgresNotices late = stores.open(new ReleaseSignals(), "late");
            Awaitility.await("the store opened later knows of the waiter within 5 s")
                    .atMost(Duration.ofNanos(TOLD_BOUND_NANOS)).until(() -> late.announcers(name) == 1);
            late.released(name);
            assertThat(waits.await(TOLD_BOUND_NANOS)).as("the waiter woken within 5 s of the later store's release")
                    .isTrue();
        }
    }

    /**
     * Stores that announced a name and left (processes that ended: each had an id of its own) are not kept by a
     * store that never releases that name: what it keeps is bounded by the stores that wait at once, not by all
     * that ever waited.
     */
    @Test
    void announcersThatLeftAreNotKeptForever() throws Exception {
        String name = "attack:many";
        PostgresNotices observer = stores.open(new ReleaseSignals(), "observer");
        int departed = 10_000;
        int atOnce = 100; // sent in one transaction: at most these wait at once
        for (int sent = 0; sent < departed; sent += atOnce) {
            List<String> batch = new ArrayList<>();
            for (int i = sent; i < sent + atOnce; i++) {
                batch.add("w " + String.format("%016x", 0x5eed0000L + i) + " 1 " + name); // ran out 1 ms later
            }
            peerSends(batch);
        }
        peerSends(List.of("w " + "f".repeat(16) + " 60000 attack:marker"));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> observer.announcers("attack:marker") == 1);
        assertThat(observer.kept(name)).as("announcements of %s kept after %d stores that left announced it",
                name, departed).isLessThan(10 * atOnce);
    }

    /**
     * A peer on the table's channel announces with an id too long for a channel name ({@code distlock_r_} and the id
     * over 63 bytes): the release notice aimed at it cannot be sent, and must not take the other notices sent with
     * it down too.
     */
    @Test
    void anIdNoChannelCanCarryCostsNoOtherNotice() throws Exception {
        PGSimpleDataSource direct = NoticeStores.source();
        CountDownLatch sending = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        PostgresNotices holder = stores.open(new ReleaseSignals(), NoticeStores.gated(direct, sending, go), "holder");
        ReleaseSignals waiterSignals = new ReleaseSignals();
        PostgresNotices waiter = stores.open(waiterSignals, "waiter");
        try (ReleaseSignals.Ticket waits = waiterSignals.ticket("attack:good")) {
            waiter.waiting("attack:good"); // the waiter's own sender is not gated
            // in one transaction: heard in this order, so the first has been read once the second has
            peerSends(List.of("w " + "a".repeat(60) + " 60000 attack:bad", "w " + "b".repeat(16)
                    + " 60000 attack:marker"));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> holder.announcers("attack:good") == 1
                    && holder.announcers("attack:marker") == 1);
            holder.waiting("attack:other"); // the holder's sender takes this one and waits at the gate
            assertThat(sending.await(10, TimeUnit.SECONDS)).as("the holder's sender at the gate").isTrue();
            holder.released("attack:bad");
            holder.released("attack:good"); // both queued: sent in one batch once the gate opens
            go.countDown();
            assertThat(waits.await(TOLD_BOUND_NANOS))
                    .as("the waiter of attack:good woken within 5 s of its release").isTrue();
        }
    }

}
