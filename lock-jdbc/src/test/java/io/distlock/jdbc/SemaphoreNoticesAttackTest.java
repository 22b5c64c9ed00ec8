package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.Grant;
import io.distlock.spi.ReleaseSignals;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Hostile names and peers against the semaphores' notices on PostgreSQL ({@code sw}, {@code sr}; the r11 review of
 * S60): a name holding spaces, newlines, text like a verb and id, or 255 characters travels whole, and a release of
 * a lock never goes out as a semaphore's notice nor the other way round. The peer is a bare {@code LISTEN}
 * connection that announces as a store would (as a store of another version does), so what the releasing store sends
 * it is read exactly; notices of one sender arrive in order, so everything sent before the expected one was read.
 */
@ExtendWith(Databases.class)
class SemaphoreNoticesAttackTest {

    private static final String PEER = "0123456789abcdef";
    private static final long READ_BOUND_MILLIS = 10_000;

    static Stream<String> names() {
        return Stream.of("x", "sr " + PEER + " x", "w " + PEER + " 60000 y", "sw " + PEER + " 60000 z",
                " lead\nnew line ", "h " + PEER + " listening", "\u4E2D".repeat(255), "\uD83D\uDE00".repeat(127) + "x",
                "a".repeat(255));
    }

    private static JdbcBackend open(String uri) {
        return (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri));
    }

    private static PostgresNotices notices(JdbcBackend backend) throws ReflectiveOperationException {
        java.lang.reflect.Field f = JdbcBackend.class.getDeclaredField("remote");
        f.setAccessible(true);
        return (PostgresNotices) f.get(backend);
    }

    /**
     * A peer announces it waits for semaphore {@code name}; the holder releases lock {@code name} first, then
     * semaphore {@code name}: the peer is sent exactly one notice, {@code sr <holder> <name>}.
     */
    @ParameterizedTest
    @MethodSource("names")
    void aSemaphoreWaiterElsewhereIsToldOfTheSemaphoreOnly(String name) throws Exception {
        assertThat(toldAfterBothReleases(name, "sw")).containsExactly("sr %s " + name);
    }

    /** The converse: a peer waiting for lock {@code name} is sent {@code r <holder> <name>} only. */
    @ParameterizedTest
    @MethodSource("names")
    void aLockWaiterElsewhereIsToldOfTheLockOnly(String name) throws Exception {
        assertThat(toldAfterBothReleases(name, "w")).containsExactly("r %s " + name);
    }

    /**
     * The notices a peer announcing {@code verb} for {@code name} is sent while a store releases lock and semaphore
     * {@code name} (in the order that sends the other kind's first), each with the releasing store's id as
     * {@code %s}: read until one of the kind announced arrives.
     */
    private static List<String> toldAfterBothReleases(String name, String verb) throws Exception {
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + Databases.uniqueTable("semattack"));
        try (JdbcBackend holder = open(uri);
             Connection peer = DriverManager.getConnection(Databases.postgres());
             Statement s = peer.createStatement()) {
            String id = notices(holder).id();
            s.execute("LISTEN \"distlock_r_" + PEER + "\"");
            Grant lock = holder.acquire(name, Duration.ofMinutes(1), Wait.none());
            Grant permit = holder.acquirePermit(name, 1, Duration.ofMinutes(1), Wait.none());
            assertThat(lock).isNotNull();
            assertThat(permit).isNotNull();
            String marker = "marker:" + System.nanoTime();
            try (ReleaseSignals.Ticket heard = holder.signals().ticket(marker)) {
                notify(peer, PostgresNotices.channel(tableOf(uri)), verb + " " + PEER + " 60000 " + name);
                notify(peer, PostgresNotices.channel(tableOf(uri)), "r " + "e".repeat(16) + " " + marker);
                assertThat(heard.await(TimeUnit.SECONDS.toNanos(30))).as("the holder read the announcement").isTrue();
            }
            boolean semaphore = verb.equals("sw");
            // the other kind first: a notice it sent wrongly would arrive before the expected one
            if (semaphore) {
                assertThat(holder.release(lock)).isTrue();
                assertThat(holder.releasePermit(permit)).isTrue();
            } else {
                assertThat(holder.releasePermit(permit)).isTrue();
                assertThat(holder.release(lock)).isTrue();
            }
            String expectedVerb = semaphore ? "sr " : "r ";
            List<String> told = new ArrayList<>();
            PGConnection pg = peer.unwrap(PGConnection.class);
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READ_BOUND_MILLIS);
            while (told.stream().noneMatch(p -> p.startsWith(expectedVerb)) && System.nanoTime() < until) {
                PGNotification[] got = pg.getNotifications(500);
                if (got != null) {
                    for (PGNotification n : got) {
                        if (n.getName().equals("distlock_r_" + PEER)) {
                            told.add(n.getParameter().replace(id, "%s"));
                        }
                    }
                }
            }
            return told;
        }
    }

    private static String tableOf(String uri) {
        String t = uri.substring(uri.indexOf("distlock.table=") + "distlock.table=".length());
        return t.contains("&") ? t.substring(0, t.indexOf('&')) : t;
    }

    private static void notify(Connection c, String channel, String payload) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, ?)")) {
            ps.setString(1, channel);
            ps.setString(2, payload);
            ps.execute();
        }
    }

    /**
     * A lock and a semaphore of one name wait in another process at once (locks poll 20 s apart): the semaphore's
     * release reaches the semaphore's waiter, and does not use up the lock's turn: the lock's release then reaches the
     * lock's waiter by a notice, not its poll.
     */
    @ParameterizedTest
    @MethodSource("names")
    void aLockAndASemaphoreOfOneNameWaitingElsewhereAreBothTold(String name) throws Exception {
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + Databases.uniqueTable("semboth")
                + "&distlock.pollMinMillis=20000&distlock.pollMaxMillis=20000");
        String elsewhere = uri + "&ApplicationName=distlock-elsewhere";
        try (JdbcBackend holder = open(uri); JdbcBackend waiter = open(elsewhere)) {
            Grant lock = holder.acquire(name, Duration.ofMinutes(1), Wait.none());
            Grant permit = holder.acquirePermit(name, 1, Duration.ofMinutes(1), Wait.none());
            CompletableFuture<Grant> lockWaiter = CompletableFuture.supplyAsync(() -> {
                try {
                    return waiter.acquire(name, Duration.ofMinutes(1), Wait.upTo(Duration.ofMinutes(1)));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            CompletableFuture<Grant> permitWaiter = CompletableFuture.supplyAsync(() -> {
                try {
                    return waiter.acquirePermit(name, 1, Duration.ofMinutes(1), Wait.upTo(Duration.ofMinutes(1)));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            PostgresNotices holderNotices = notices(holder);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> holderNotices.announcers(name) == 1);
            try (ReleaseSignals.Ticket told = waiter.permitTable().releaseProbe(name)) {
                assertThat(holder.releasePermit(permit)).isTrue();
                assertThat(told.await(TimeUnit.SECONDS.toNanos(5))).as("the semaphore's waiter told").isTrue();
            }
            assertThat(permitWaiter.get(30, TimeUnit.SECONDS)).isNotNull();
            long released = System.nanoTime();
            assertThat(holder.release(lock)).isTrue();
            assertThat(lockWaiter.get(30, TimeUnit.SECONDS)).isNotNull();
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released);
            assertThat(tookMillis).as("ms from the lock's release to its waiter elsewhere, after the semaphore's"
                    + " (a poll is 10..20 s)").isLessThan(5000);
        }
    }

    /**
     * A store that opens after a semaphore waiter elsewhere announced (announcements repeat only every 20 s here) is
     * told of that waiter by the answer to its {@code h}, so its release of the semaphore reaches the waiter by notice.
     * The permit is released through the late store by its token, as any store of the table may.
     */
    @ParameterizedTest
    @MethodSource("names")
    void aStoreOpenedAfterTheSemaphoreWaiterAnnouncedStillTellsIt(String name) throws Exception {
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + Databases.uniqueTable("semhello")
                + "&distlock.pollMinMillis=20000&distlock.pollMaxMillis=20000");
        String table = tableOf(uri);
        try (JdbcBackend first = open(uri + "&ApplicationName=distlock-first");
             JdbcBackend waiter = open(uri + "&ApplicationName=distlock-waiter");
             ReleaseSignals.Ticket told = waiter.permitTable().releaseProbe(name);
             Connection peer = DriverManager.getConnection(Databases.postgres());
             Statement s = peer.createStatement()) {
            s.execute("LISTEN \"" + PostgresNotices.channel(table) + "\"");
            Grant permit = first.acquirePermit(name, 1, Duration.ofMinutes(1), Wait.none());
            assertThat(permit).isNotNull();
            CompletableFuture<Grant> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return waiter.acquirePermit(name, 1, Duration.ofMinutes(1), Wait.upTo(Duration.ofMinutes(1)));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            String announcement = "sw " + notices(waiter).id() + " 40000 " + name;
            PGConnection pg = peer.unwrap(PGConnection.class);
            boolean seen = false;
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!seen && System.nanoTime() < until) {
                PGNotification[] got = pg.getNotifications(500);
                for (PGNotification n : got == null ? new PGNotification[0] : got) {
                    seen |= n.getParameter().equals(announcement);
                }
            }
            assertThat(seen).as("the waiter announced %s", announcement).isTrue();
            try (JdbcBackend late = open(uri + "&ApplicationName=distlock-late")) {
                assertThat(late.releasePermit(permit)).isTrue();
                assertThat(told.await(TimeUnit.SECONDS.toNanos(5)))
                        .as("the waiter told of the release by the store opened after it announced").isTrue();
                Grant taken = waiting.get(30, TimeUnit.SECONDS);
                assertThat(taken).isNotNull();
                assertThat(waiter.releasePermit(taken)).isTrue();
            }
        }
    }

    /**
     * The S48 bound is one for both kinds: a flood of semaphore announcements (20,000 names, 120 s each) evicts no
     * lock announcement kept before it; one made during the flood is not kept (its waiter polls), as during a flood of
     * lock announcements.
     */
    @org.junit.jupiter.api.Test
    void aFloodOfSemaphoreAnnouncementsEvictsNoLockAnnouncement() throws Exception {
        try (NoticeStores stores = new NoticeStores("semflood");
             Connection c = DriverManager.getConnection(Databases.postgres())) {
            ReleaseSignals signals = new ReleaseSignals();
            PostgresNotices store = stores.open(signals, "target");
            String channel = PostgresNotices.channel(stores.table());
            List<String> before = List.of("w " + "a".repeat(16) + " 120000 kept-before");
            sendAndAwait(c, channel, signals, before);
            for (int sent = 0; sent < PostgresNotices.MAX_KEPT_ANNOUNCEMENTS; sent += 1000) {
                List<String> batch = new ArrayList<>();
                for (int i = sent; i < sent + 1000; i++) {
                    batch.add("sw " + String.format("%016x", i) + " 120000 flood:" + i);
                }
                sendAndAwait(c, channel, signals, batch);
            }
            sendAndAwait(c, channel, signals, List.of("w " + "b".repeat(16) + " 120000 during"));
            assertThat(store.announcers("kept-before")).as("a lock announcement kept before the flood").isEqualTo(1);
            assertThat(store.keptAnnouncements()).isLessThanOrEqualTo(PostgresNotices.MAX_KEPT_ANNOUNCEMENTS);
            assertThat(store.announcers("during")).as("a lock announcement made during the flood").isZero();
        }
    }

    /** Sends {@code payloads} and a marker on {@code channel}, and waits until the store waking {@code signals} read it. */
    private static void sendAndAwait(Connection c, String channel, ReleaseSignals signals, List<String> payloads)
            throws Exception {
        String marker = "marker:" + System.nanoTime();
        try (ReleaseSignals.Ticket heard = signals.ticket(marker);
             PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, p) FROM unnest(?::text[]) AS p")) {
            List<String> all = new ArrayList<>(payloads);
            all.add("r " + "e".repeat(16) + " " + marker);
            ps.setString(1, channel);
            ps.setArray(2, c.createArrayOf("text", all.toArray()));
            ps.execute();
            assertThat(heard.await(TimeUnit.SECONDS.toNanos(30))).as("the marker read within 30 s").isTrue();
        }
    }

    /**
     * Announcements that cross a release keep their kind: a peer that announces lock {@code name} and then semaphore
     * {@code name} just after the holder released the semaphore is answered at once with {@code sr} only; when it then
     * says goodbye ({@code g}), the holder passes that recent release on to every store, again as {@code sr} only.
     */
    @ParameterizedTest
    @MethodSource("names")
    void lateAnnouncementsAndGoodbyesKeepTheirKind(String name) throws Exception {
        String uri = Databases.withOptions(Databases.postgres(), "distlock.table=" + Databases.uniqueTable("semlate"));
        String channel = PostgresNotices.channel(tableOf(uri));
        try (JdbcBackend holder = open(uri);
             Connection peer = DriverManager.getConnection(Databases.postgres());
             Statement s = peer.createStatement()) {
            String id = notices(holder).id();
            s.execute("LISTEN \"distlock_r_" + PEER + "\"");
            s.execute("LISTEN \"" + channel + "\"");
            Grant permit = holder.acquirePermit(name, 1, Duration.ofMinutes(1), Wait.none());
            assertThat(holder.releasePermit(permit)).isTrue();
            notify(peer, channel, "w " + PEER + " 60000 " + name);
            notify(peer, channel, "sw " + PEER + " 60000 " + name);
            assertThat(readUntil(peer, id, "distlock_r_" + PEER, "sr "))
                    .as("answers to late announcements").containsExactly("sr %s " + name);
            notify(peer, channel, "g " + PEER + " closed");
            assertThat(readUntil(peer, id, channel, "sr "))
                    .as("the recent release passed on after the goodbye").containsExactly("sr %s " + name);
        }
    }

    /**
     * The payloads {@code peer} reads on {@code channel} from the store {@code id} (as {@code %s}), until one starts
     * with {@code last} or {@link #READ_BOUND_MILLIS} passed.
     */
    private static List<String> readUntil(Connection peer, String id, String channel, String last) throws Exception {
        List<String> told = new ArrayList<>();
        PGConnection pg = peer.unwrap(PGConnection.class);
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READ_BOUND_MILLIS);
        while (told.stream().noneMatch(p -> p.startsWith(last)) && System.nanoTime() < until) {
            PGNotification[] got = pg.getNotifications(500);
            for (PGNotification n : got == null ? new PGNotification[0] : got) {
                if (n.getName().equals(channel) && n.getParameter().contains(" " + id + " ")) {
                    told.add(n.getParameter().replace(" " + id + " ", " %s "));
                }
            }
        }
        return told;
    }
}
