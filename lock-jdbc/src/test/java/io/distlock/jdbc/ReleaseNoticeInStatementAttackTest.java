package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.spi.ReleaseSignals;
import io.distlock.spi.StoreUri;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Attacks on the release notice that rides in the release statement ({@link PostgresNotices#release},
 * {@link PostgresDialect#releaseNotifyingSql()}), on the machine's PostgreSQL: the notice may leave only when the
 * statement freed the token's row and committed, a release it cannot carry is a plain one, and a store that
 * closed or died costs no failed release. The holder's background sender is held at a gate, so a waiter woken
 * while it is shut was told by the statement itself.
 */
@ExtendWith(Databases.class)
class ReleaseNoticeInStatementAttackTest {

    private static final long TOLD_BOUND_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long NOT_TOLD_WINDOW_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final String TOKEN = "t-ours";

    private final NoticeStores stores = new NoticeStores("inline_notice");
    private final CountDownLatch senderEntered = new CountDownLatch(1);
    private final CountDownLatch senderGo = new CountDownLatch(1);
    private String table;
    private PostgresDialect dialect;

    @BeforeEach
    void lockTable() {
        table = Databases.uniqueTable("inline_rows");
        // the store creates its table as it opens; its rows are written here by hand
        new JdbcLockStoreProvider().open(StoreUri.parse(Databases.withOptions(Databases.postgres(),
                "distlock.table=" + table))).close();
        dialect = new PostgresDialect(table);
    }

    @AfterEach
    void closeAll() {
        senderGo.countDown();
        stores.close();
    }

    /** A holder whose background notices wait at the gate until {@link #senderGo} opens. */
    private PostgresNotices gatedHolder() {
        DataSource gated = NoticeStores.gated(NoticeStores.source(), senderEntered, senderGo);
        return stores.open(new ReleaseSignals(), gated, "holder");
    }

    /** A row of {@code name} held by {@link #TOKEN} for a minute. */
    private void held(String name) throws SQLException {
        held(Databases.postgres(), name);
    }

    /** A row of {@code name} held by {@link #TOKEN} for a minute, in the database of {@code url}. */
    private void held(String url, String name) throws SQLException {
        try (Connection c = DriverManager.getConnection(url);
             PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (name, owner_token, fence,"
                     + " expires_at) VALUES (?, ?, 1, clock_timestamp() + INTERVAL '1 minute')")) {
            ps.setString(1, name);
            ps.setString(2, TOKEN);
            ps.executeUpdate();
        }
    }

    /** The token holding {@code name}'s row now, or null. */
    private String holderOf(String name) throws SQLException {
        return holderOf(Databases.postgres(), name);
    }

    /** The token holding {@code name}'s row now, or null, in the database of {@code url}. */
    private String holderOf(String url, String name) throws SQLException {
        try (Connection c = DriverManager.getConnection(url);
             PreparedStatement ps = c.prepareStatement("SELECT owner_token FROM " + table + " WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** {@code holder}'s release of {@code name} by {@code token}, then its {@code released}, as JdbcBackend does. */
    private boolean release(PostgresNotices holder, String name, String token) throws SQLException {
        try (Connection c = DriverManager.getConnection(Databases.postgres())) {
            return holder.release(c, dialect, name, token);
        } finally {
            holder.released(name);
        }
    }

    /**
     * The ticket of a waiter of {@code name} in a store of its own, whose announcement {@code holder} heard: the
     * holder's release of the name carries a notice to it.
     */
    private ReleaseSignals.Ticket announcedTo(PostgresNotices holder, String name) {
        ReleaseSignals waiterSignals = new ReleaseSignals();
        PostgresNotices waiter = stores.open(waiterSignals, "waiter");
        ReleaseSignals.Ticket waits = waiterSignals.ticket(name);
        try {
            waiter.waiting(name);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> holder.announcers(name) == 1);
            return waits;
        } catch (RuntimeException | Error e) {
            waits.close();
            throw e;
        }
    }

    @Test
    void aFreedRowCarriesItsNoticeWithoutTheBackgroundSender() throws Exception {
        String name = "inline:freed";
        held(name);
        PostgresNotices holder = gatedHolder();
        try (ReleaseSignals.Ticket waits = announcedTo(holder, name)) {

            try (Connection c = DriverManager.getConnection(Databases.postgres())) {
                try {
                    assertThat(holder.release(c, dialect, name, TOKEN)).isTrue();
                } finally {
                    holder.released(name);
                }
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW synchronous_commit")) {
                    rs.next();
                    assertThat(rs.getString(1)).as("the release's commit without flush is not left to the pooled"
                            + " connection's next statement (an acquire)").isEqualTo("on");
                }
            }

            assertThat(waits.await(TOLD_BOUND_NANOS)).as("the waiter told by the release statement within 5 s,"
                    + " its holder's background sender shut").isTrue();
            assertThat(holderOf(name)).as("the row freed").isNull();
            assertThat(senderEntered.getCount()).as("nothing sent from the background").isEqualTo(1);
        }
    }

    @Test
    void aRowNotOursSendsNoNoticeFromTheStatement() throws Exception {
        String name = "inline:not-ours";
        held(name);
        PostgresNotices holder = gatedHolder();
        try (ReleaseSignals.Ticket waits = announcedTo(holder, name)) {

            assertThat(release(holder, name, "t-stale")).as("a stale token frees nothing").isFalse();

            assertThat(waits.await(NOT_TOLD_WINDOW_NANOS)).as("told of a release that freed nothing, by the"
                    + " statement").isFalse();
            assertThat(holderOf(name)).isEqualTo(TOKEN);
            senderGo.countDown();
            assertThat(waits.await(TOLD_BOUND_NANOS)).as("the background notice still sent, as before the"
                    + " statement carried notices").isTrue();
        }
    }

    @Test
    void aFailedStatementSendsNoNoticeAndFreesNothing() throws Exception {
        String name = "inline:failed";
        held(name);
        PostgresNotices holder = gatedHolder();
        try (ReleaseSignals.Ticket waits = announcedTo(holder, name);
             Connection blocker = DriverManager.getConnection(Databases.postgres());
             Connection c = DriverManager.getConnection(Databases.postgres())) {
            blocker.setAutoCommit(false);
            try (Statement st = blocker.createStatement()) {
                st.executeQuery("SELECT 1 FROM " + table + " WHERE name = '" + name + "' FOR UPDATE").close();
            }
            try (Statement st = c.createStatement()) {
                st.execute("SET statement_timeout = 300"); // the release waits on the locked row, then is cancelled
            }

            try {
                assertThatThrownBy(() -> holder.release(c, dialect, name, TOKEN)).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("57014"));
            } finally {
                holder.released(name);
            }
            blocker.rollback();

            assertThat(waits.await(NOT_TOLD_WINDOW_NANOS)).as("told by a statement that failed").isFalse();
            assertThat(holderOf(name)).as("the failed release freed nothing").isEqualTo(TOKEN);
            assertThat(release(holder, name, TOKEN)).as("the next release on this thread").isTrue();
            assertThat(waits.await(TOLD_BOUND_NANOS)).as("told by the next release, which freed the row").isTrue();
        }
    }

    /**
     * The statement cannot check a payload: one of 8,000 bytes or more fails it, release and all, so {@link
     * PostgresNotices} sends none such (a name's notice is at most about 1 kB: 255 characters of 4 UTF-8 bytes).
     */
    @Test
    void aTooLongPayloadWouldFailTheReleaseWholeSoNoneIsSent() throws Exception {
        String name = "inline:payload";
        held(name);
        try (Connection c = DriverManager.getConnection(Databases.postgres());
             PreparedStatement ps = c.prepareStatement(dialect.releaseNotifyingSql())) {
            ps.setString(1, name);
            ps.setString(2, TOKEN);
            ps.setString(3, "distlock_r_0123");
            ps.setString(4, "r 0123 " + "x".repeat(8000));
            assertThatThrownBy(ps::executeQuery).isInstanceOf(SQLException.class).hasMessageContaining("too long");
        }
        assertThat(holderOf(name)).as("the refused notice took its release down with it").isEqualTo(TOKEN);

        String longest = "\uD83D\uDE00".repeat(127) + "x"; // 255 characters, 509 bytes
        held(longest);
        PostgresNotices holder = gatedHolder();
        try (ReleaseSignals.Ticket waits = announcedTo(holder, longest)) {
            assertThat(release(holder, longest, TOKEN)).isTrue();
            assertThat(waits.await(TOLD_BOUND_NANOS)).as("the longest name's notice, from the statement").isTrue();
        }
    }

    /**
     * The store a release is aimed at closed (its {@code g} heard or not yet) or died without a word (its
     * announcement still kept): the release frees the row all the same, and a waiter of another store that announced
     * is told.
     */
    @Test
    void aReleaseAimedAtAStoreThatIsGoneStillFreesAndTellsTheOthers() throws Exception {
        String name = "inline:gone";
        held(name);
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
            waiter.waiting(name); // heard after the store that goes: the release is aimed at that one
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> holder.announcers(name) == 2);
            gone.close();

            assertThat(release(holder, name, TOKEN)).isTrue();

            assertThat(holderOf(name)).isNull();
            assertThat(waits.await(TOLD_BOUND_NANOS)).as("the open store's waiter told within 5 s of a release"
                    + " aimed at a closed store").isTrue();
        }

        String dead = "inline:dead";
        held(dead);
        try (Connection c = DriverManager.getConnection(Databases.postgres());
             PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, ?)")) {
            ps.setString(1, PostgresNotices.channel(stores.table()));
            ps.setString(2, "w abcdef0123456789 60000 " + dead); // a store that died: nobody listens on its channel
            ps.execute();
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> holder.announcers(dead) == 1);
        assertThat(release(holder, dead, TOKEN)).as("a release aimed at a channel nobody listens on").isTrue();
        assertThat(holderOf(dead)).isNull();
    }

    /**
     * A server that refuses the notice (a role that may not run {@code pg_notify}, as a DBA may revoke it; likewise a
     * NOTIFY queue that is full, which fails every notifying commit in the cluster) must not refuse the release with
     * it: the notice is an extra, the release is the holder's promise. Here the release runs, as a role whose
     * database revoked {@code pg_notify} from PUBLIC, in a database of its own (the shared one is left alone).
     */
    @Test
    void aNoticeTheServerRefusesCostsNeitherTheReleaseNorTheWakeUp() throws Exception {
        inADatabaseRefusingNotices(url -> {
            String name = "inline:refused";
            held(url, name);
            PostgresNotices holder = stores.open(new ReleaseSignals(), "holder");
            try (ReleaseSignals.Ticket waits = announcedTo(holder, name)) {

                try (Connection c = DriverManager.getConnection(url)) {
                    try {
                        assertThat(holder.release(c, dialect, name, TOKEN)).as("released though the notice was"
                                + " refused").isTrue();
                    } finally {
                        holder.released(name);
                    }
                }
                assertThat(holderOf(url, name)).as("the row freed").isNull();
                assertThat(waits.await(TOLD_BOUND_NANOS)).as("the waiter told from the background, as before the"
                        + " statement carried notices").isTrue();
            }
        });
    }

    /**
     * The release whose notice the server refused told nobody, so the notice sent after it from the background goes
     * to the store whose turn it was (announced first, never told), not to the one after it: the refused statement's
     * aim took no turn (DEFECTS S95).
     */
    @Test
    void aNoticeTheServerRefusedInTheReleaseGoesToTheStoreWhoseTurnItWas() throws Exception {
        inADatabaseRefusingNotices(url -> {
            String name = "inline:refused-turn";
            held(url, name);
            PostgresNotices holder = stores.open(new ReleaseSignals(), "holder");
            Turns turns = twoAnnounced(holder, name);
            try (ReleaseSignals.Ticket firstWaits = turns.first(); ReleaseSignals.Ticket secondWaits = turns.second()) {

                try (Connection c = DriverManager.getConnection(url)) {
                    try {
                        assertThat(holder.release(c, dialect, name, TOKEN)).as("released though the notice was"
                                + " refused").isTrue();
                    } finally {
                        holder.released(name);
                    }
                }
                assertThat(firstWaits.await(TOLD_BOUND_NANOS)).as("the store whose turn it was, told from the"
                        + " background after the server refused the notice in the release").isTrue();
                assertThat(secondWaits.await(NOT_TOLD_WINDOW_NANOS)).as("the store after it, told of the same"
                        + " release").isFalse();
            }
        });
    }

    /**
     * A release statement that failed told nobody, so the notice sent after it from the background goes to the store
     * whose turn it was, and the next release to the store after it: one turn per release (DEFECTS S95).
     */
    @Test
    void aReleaseWhoseStatementFailedTellsTheStoreWhoseTurnItWas() throws Exception {
        String name = "inline:failed-turn";
        held(name);
        PostgresNotices holder = stores.open(new ReleaseSignals(), "holder");
        Turns turns = twoAnnounced(holder, name);
        try (ReleaseSignals.Ticket firstWaits = turns.first(); ReleaseSignals.Ticket secondWaits = turns.second()) {
            Connection lost = DriverManager.getConnection(Databases.postgres());
            lost.close();

            try {
                assertThatThrownBy(() -> holder.release(lost, dialect, name, TOKEN))
                        .as("a release on a lost connection").isInstanceOf(SQLException.class);
            } finally {
                holder.released(name);
            }
            assertThat(firstWaits.await(TOLD_BOUND_NANOS)).as("the store whose turn it was, told from the background"
                    + " after the release's statement failed").isTrue();
            assertThat(secondWaits.await(NOT_TOLD_WINDOW_NANOS)).as("the store after it, told of the same release")
                    .isFalse();

            assertThat(release(holder, name, TOKEN)).as("the next release, which frees the row").isTrue();
            assertThat(secondWaits.await(TOLD_BOUND_NANOS)).as("the store after it, told of the next release").isTrue();
        }
    }

    /**
     * A release statement that freed the row and sent its notice at commit, whose answer the network lost: the
     * release fails on the client, and the store whose turn it was is told again from the background (the statement's
     * aim took no turn, S95), but the turn moves on all the same: the next release tells the store after it, never
     * the same store for good.
     */
    @Test
    void aReleaseWhoseAnswerWasLostLeavesNoTurnStuck() throws Exception {
        String name = "inline:lost-answer";
        held(name);
        PostgresNotices holder = stores.open(new ReleaseSignals(), "holder");
        Turns turns = twoAnnounced(holder, name);
        try (ReleaseSignals.Ticket firstWaits = turns.first(); ReleaseSignals.Ticket secondWaits = turns.second();
             ReplyDroppingProxy proxy = new ReplyDroppingProxy(Databases.postgres());
             Connection c = DriverManager.getConnection(proxy.route(Databases.postgres()) + "&socketTimeout=2")) {
            proxy.dropRepliesFrom(java.util.regex.Pattern.compile("pg_notify"));

            try {
                assertThatThrownBy(() -> holder.release(c, dialect, name, TOKEN))
                        .as("a release whose answer was lost").isInstanceOf(SQLException.class);
            } finally {
                holder.released(name);
            }
            assertThat(holderOf(name)).as("the row the lost answer's statement freed").isNull();
            assertThat(firstWaits.await(TOLD_BOUND_NANOS)).as("the store whose turn it was, told").isTrue();

            try (Connection admin = DriverManager.getConnection(Databases.postgres());
                 PreparedStatement ps = admin.prepareStatement("UPDATE " + table + " SET owner_token = ?,"
                         + " expires_at = clock_timestamp() + INTERVAL '1 minute' WHERE name = ?")) {
                ps.setString(1, TOKEN);
                ps.setString(2, name);
                assertThat(ps.executeUpdate()).isOne();
            }
            assertThat(release(holder, name, TOKEN)).as("the next release, which frees the row").isTrue();
            assertThat(secondWaits.await(TOLD_BOUND_NANOS)).as("the store after it, told of the next release")
                    .isTrue();
        }
    }

    /** The tickets of the waiters of two stores that announced a name, in the order {@code holder} heard them. */
    private record Turns(ReleaseSignals.Ticket first, ReleaseSignals.Ticket second) {
    }

    /** Two stores' waiters of {@code name}, whose announcements {@code holder} heard one after the other. */
    private Turns twoAnnounced(PostgresNotices holder, String name) {
        ReleaseSignals.Ticket first = announcedTo(holder, name);
        try {
            ReleaseSignals secondSignals = new ReleaseSignals();
            PostgresNotices second = stores.open(secondSignals, "second");
            ReleaseSignals.Ticket waits = secondSignals.ticket(name);
            second.waiting(name);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> holder.announcers(name) == 2);
            return new Turns(first, waits);
        } catch (RuntimeException | Error e) {
            first.close();
            throw e;
        }
    }

    /** Code run with the URL of a database of its own. */
    @FunctionalInterface
    private interface InDatabase {
        void run(String url) throws Exception;
    }

    /**
     * Runs {@code body} with the URL of a database of its own, holding this test's lock table, whose role may not run
     * {@code pg_notify} (revoked from PUBLIC, as a DBA may; the shared database is left alone). The stores' background
     * notices go through the shared database, which runs it.
     */
    private void inADatabaseRefusingNotices(InDatabase body) throws Exception {
        String db = Databases.uniqueTable("s82db");
        String role = Databases.uniqueTable("s82role");
        try (Connection admin = DriverManager.getConnection(Databases.postgres());
             Statement st = admin.createStatement()) {
            st.execute("CREATE ROLE " + role + " LOGIN");
            st.execute("CREATE DATABASE " + db + " OWNER " + role);
        }
        try {
            String url = Databases.postgres().replaceFirst("(jdbc:postgresql://[^/]+/)[^?]*", "$1" + db)
                    .replaceFirst("user=[^&]*", "user=" + role);
            try (Connection owner = DriverManager.getConnection(url.replaceFirst("user=[^&]*", "user=postgres"));
                 Statement st = owner.createStatement()) {
                st.execute("REVOKE EXECUTE ON FUNCTION pg_notify(text, text) FROM PUBLIC");
            }
            new JdbcLockStoreProvider().open(StoreUri.parse(url + "&distlock.table=" + table)).close();
            body.run(url);
        } finally {
            try (Connection admin = DriverManager.getConnection(Databases.postgres());
                 Statement st = admin.createStatement()) {
                st.execute("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
                st.execute("DROP ROLE IF EXISTS " + role);
            }
        }
    }

    /**
     * The release with a notice commits with {@code synchronous_commit} off, seen from inside its own transaction (a
     * trigger on the row records the setting), in both of the driver's query modes, and leaves the connection with
     * the session's own setting afterwards ({@code remote_apply} from the URL's {@code options}), not with {@code on}
     * or {@code off}.
     */
    @Test
    void theReleaseAloneCommitsWithoutFlushAndTheSessionKeepsItsOwnSetting() throws Exception {
        String seen = table + "_seen";
        try (Connection admin = DriverManager.getConnection(Databases.postgres());
             Statement st = admin.createStatement()) {
            st.execute("CREATE TABLE " + seen + " (name TEXT, setting TEXT)");
            st.execute("CREATE FUNCTION " + seen + "_f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "
                    + seen + " VALUES (NEW.name, current_setting('synchronous_commit')); RETURN NEW; END $$");
            st.execute("CREATE TRIGGER " + seen + "_t AFTER UPDATE ON " + table + " FOR EACH ROW EXECUTE FUNCTION "
                    + seen + "_f()");
        }
        try {
            PostgresNotices holder = gatedHolder();
            for (String mode : new String[] {"extended", "simple"}) {
                String name = "inline:sync:" + mode;
                held(name);
                try (ReleaseSignals.Ticket waits = announcedTo(holder, name);
                     Connection c = DriverManager.getConnection(Databases.postgres() + "&preferQueryMode=" + mode
                             + "&options=-c%20synchronous_commit%3Dremote_apply")) {
                    try {
                        assertThat(holder.release(c, dialect, name, TOKEN)).as(mode).isTrue();
                    } finally {
                        holder.released(name);
                    }
                    try (Statement st = c.createStatement();
                         ResultSet rs = st.executeQuery("SHOW synchronous_commit")) {
                        rs.next();
                        assertThat(rs.getString(1)).as("the session's own setting after the release, " + mode)
                                .isEqualTo("remote_apply");
                    }
                    try (PreparedStatement ps = c.prepareStatement("SELECT setting FROM " + seen
                            + " WHERE name = ?")) {
                        ps.setString(1, name);
                        try (ResultSet rs = ps.executeQuery()) {
                            assertThat(rs.next()).isTrue();
                            assertThat(rs.getString(1)).as("the setting inside the release's transaction, " + mode)
                                    .isEqualTo("off");
                        }
                    }
                    assertThat(waits.await(TOLD_BOUND_NANOS)).as("told by the statement, " + mode).isTrue();
                }
            }
            assertThat(senderEntered.getCount()).as("nothing sent from the background").isEqualTo(1);
        } finally {
            try (Connection admin = DriverManager.getConnection(Databases.postgres());
                 Statement st = admin.createStatement()) {
                st.execute("DROP TABLE IF EXISTS " + seen);
                st.execute("DROP TRIGGER IF EXISTS " + seen + "_t ON " + table);
                st.execute("DROP FUNCTION IF EXISTS " + seen + "_f()");
            }
        }
    }
}
