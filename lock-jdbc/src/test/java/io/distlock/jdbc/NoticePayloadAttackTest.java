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

/**
 * Hostile payloads on PostgreSQL's notice channels ({@link PostgresNotices}), on the machine's PostgreSQL: anyone who
 * can {@code NOTIFY} there can send garbage, durations that overflow, floods of names and ids, and names too long to
 * be passed on. None may throw the listener off its connection, keep an announcement past what a store announces,
 * grow memory without bound, or take other names' release notices down with it (found by the r10 safety review).
 */
@ExtendWith(Databases.class)
class NoticePayloadAttackTest {

    private static final long TOLD_BOUND_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final NoticeStores stores = new NoticeStores("payload_attack");

    @AfterEach
    void closeAll() {
        stores.close();
    }

    /** Sends {@code payloads} on {@code channel} in one transaction, as a peer of the table would. */
    private static void send(String channel, List<String> payloads) throws Exception {
        try (Connection c = DriverManager.getConnection(Databases.postgres());
             PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, p) FROM unnest(?::text[]) AS p")) {
            ps.setString(1, channel);
            ps.setArray(2, c.createArrayOf("text", payloads.toArray()));
            ps.execute();
        }
    }

    private void peerSends(List<String> payloads) throws Exception {
        send(PostgresNotices.channel(stores.table()), payloads);
    }

    /**
     * Sends {@code payloads}, then a release notice of a marker name on the table's channel, and waits until the store
     * waking {@code signals} has read the marker, so every payload before it (kept or not: a flood is not).
     */
    private void peerSendsAndIsHeard(ReleaseSignals signals, List<String> payloads) throws Exception {
        String marker = "attack:marker:" + System.nanoTime();
        try (ReleaseSignals.Ticket heard = signals.ticket(marker)) {
            List<String> all = new ArrayList<>(payloads);
            all.add("r " + "e".repeat(16) + " " + marker);
            peerSends(all);
            assertThat(heard.await(TimeUnit.SECONDS.toNanos(30))).as("the marker read within 30 s").isTrue();
        }
    }

    @Test
    void garbageNeitherThrowsTheListenerOffNorWakesAnyone() throws Exception {
        ReleaseSignals signals = new ReleaseSignals();
        PostgresNotices store = stores.open(signals, "target");
        List<String> garbage = List.of("", " ", "  ", "w", "w ", "w x", "w x y", "w 0 -5 n", "w 0 abc n",
                "w 0 99999999999999999999 n", "w " + "0".repeat(53) + " 1000 n", "w ZZ 1000 n", "r", "r ", "r  ",
                "h", "h  ", "h x listening", "g", "g ", "g  closed", "x y z", "\t\n\r", "w\t0\t1000\tn",
                "w 0 1000 " + "n".repeat(7000), "\u00e9 \u00e9 \u00e9", "r 0 " + "n".repeat(7000),
                // the semaphores' forms of the same
                "sw", "sw ", "sw x", "sw x y", "sw 0 -5 n", "sw 0 abc n", "sw 0 99999999999999999999 n",
                "sw " + "0".repeat(53) + " 1000 n", "sr", "sr ", "sr  ", "sw 0 1000 " + "n".repeat(7000),
                "sr 0 " + "n".repeat(7000), "s", "s 0 1000 n", "ws 0 1000 n", "rs 0 n");
        try (ReleaseSignals.Ticket waits = signals.ticket("attack:quiet")) {
            peerSendsAndIsHeard(signals, garbage);
            send("distlock_r_" + store.id(), garbage);
            peerSendsAndIsHeard(signals, List.of());
            // a listener thrown off its connection reconnects and wakes every local waiter
            assertThat(waits.await(TimeUnit.MILLISECONDS.toNanos(1500))).as("a waiter woken by garbage").isFalse();
        }
    }

    @Test
    void anAnnouncementCountsNoLongerThanAStoreAnnounces() throws Exception {
        ReleaseSignals signals = new ReleaseSignals();
        PostgresNotices store = stores.open(signals, "target");
        peerSendsAndIsHeard(signals, List.of("w " + "a".repeat(16) + " " + Long.MAX_VALUE + " attack:overflow",
                "w " + "b".repeat(16) + " " + Long.MAX_VALUE / 1_000_000 + " attack:huge",
                "w " + "c".repeat(16) + " -1 attack:negative"));
        long longest = PostgresNotices.MAX_ANNOUNCED_MILLIS;
        assertThat(store.liveForMillis("attack:overflow")).as("an announcement of Long.MAX_VALUE ms counts for")
                .isBetween(1L, longest);
        assertThat(store.liveForMillis("attack:huge")).as("an announcement of 292 years counts for")
                .isBetween(1L, longest);
        assertThat(store.announcers("attack:negative")).as("stores announcing a negative duration").isZero();
    }

    @Test
    void aFloodOfNamesAndIdsIsNotKeptWithoutBound() throws Exception {
        ReleaseSignals signals = new ReleaseSignals();
        PostgresNotices store = stores.open(signals, "target");
        int names = 30_000;
        for (int sent = 0; sent < names; sent += 1000) {
            List<String> batch = new ArrayList<>();
            for (int i = sent; i < sent + 1000; i++) {
                batch.add("w " + String.format("%016x", i) + " 120000 attack:flood:" + i);
            }
            peerSends(batch);
        }
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 30_000; i++) {
            ids.add("w " + String.format("%016x", 0x1d000000L + i) + " 120000 attack:ids");
        }
        for (int i = 0; i < ids.size(); i += 1000) {
            peerSends(ids.subList(i, i + 1000));
        }
        peerSendsAndIsHeard(signals, List.of());
        assertThat(store.keptAnnouncements()).as("announcements kept after %d names and %d ids were announced",
                names, ids.size()).isLessThanOrEqualTo(PostgresNotices.MAX_KEPT_ANNOUNCEMENTS);
    }

    /** Semaphores' announcements ({@code sw}) count against the same bound as locks': kept together, not twice. */
    @Test
    void aFloodOfLockAndSemaphoreAnnouncementsIsKeptWithinOneBound() throws Exception {
        ReleaseSignals signals = new ReleaseSignals();
        PostgresNotices store = stores.open(signals, "target");
        int names = 30_000;
        for (int sent = 0; sent < names; sent += 1000) {
            List<String> batch = new ArrayList<>();
            for (int i = sent; i < sent + 1000; i++) {
                batch.add((i % 2 == 0 ? "w " : "sw ") + String.format("%016x", i) + " 120000 attack:mixed:" + i / 2);
            }
            peerSends(batch);
        }
        peerSendsAndIsHeard(signals, List.of());
        assertThat(store.keptAnnouncements()).as("announcements kept after %d lock and semaphore names", names)
                .isLessThanOrEqualTo(PostgresNotices.MAX_KEPT_ANNOUNCEMENTS);
    }

    /**
     * A release notice aimed at this store for a name it has no waiter of is passed on to every store; one whose name
     * is too long to pass on (a payload over PostgreSQL's 8,000 bytes once this store's id is in it) must not take
     * the release notices sent in the same batch down with it.
     */
    @Test
    void aNoticeTooLongToPassOnCostsNoOtherNotice() throws Exception {
        CountDownLatch sending = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        ReleaseSignals holderSignals = new ReleaseSignals();
        PostgresNotices holder = stores.open(holderSignals, NoticeStores.gated(NoticeStores.source(), sending, go),
                "holder");
        ReleaseSignals waiterSignals = new ReleaseSignals();
        PostgresNotices waiter = stores.open(waiterSignals, "waiter");
        try (ReleaseSignals.Ticket waits = waiterSignals.ticket("attack:good")) {
            waiter.waiting("attack:good");
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> holder.announcers("attack:good") == 1);
            holder.waiting("attack:other"); // the holder's sender takes this one and waits at the gate
            assertThat(sending.await(10, TimeUnit.SECONDS)).as("the holder's sender at the gate").isTrue();
            send("distlock_r_" + holder.id(), List.of("r a " + "n".repeat(7990)));
            peerSendsAndIsHeard(holderSignals, List.of()); // the aimed notice was read before this one
            holder.released("attack:good"); // queued with the notice passed on: one batch once the gate opens
            go.countDown();
            assertThat(waits.await(TOLD_BOUND_NANOS))
                    .as("the waiter of attack:good woken within 5 s of its release").isTrue();
        }
    }

    @Test
    void storesOpenedAndClosedLeaveNoIdBehind() {
        int before = PostgresNotices.jvmIds();
        for (int i = 0; i < 20; i++) {
            stores.open(new ReleaseSignals(), "short-lived-" + i).close();
        }
        assertThat(PostgresNotices.jvmIds()).as("ids of this JVM kept after 20 stores opened and closed")
                .isEqualTo(before);
    }

}
