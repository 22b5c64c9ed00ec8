package io.distlock.jdbc;

import io.distlock.spi.ReleaseSignals;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Cross-process wake-ups on PostgreSQL with {@code LISTEN/NOTIFY}. A waiter that finds a lock held announces it
 * ({@code w}) on the table's channel, which every store of the table hears; a store that releases a lock some other
 * store announced it wants sends one release notice ({@code r}) on the channel of one of those stores, taking them in
 * turn (the one told longest ago first), and that store's listener wakes its local waiters of that name: one store
 * retries per release, not every store that waits. A lock's release notice rides in the release statement itself
 * ({@link PostgresDialect#releaseNotifyingSql()}), sent at its commit only when it freed the row: no round trip and
 * no thread hop after the release. A store told of a release it has no waiter for (its waiter has
 * just won or given up) passes the notice on to the table's channel, where every store hears it, so a notice aimed
 * at the wrong store costs a hop, not a hand-off. A store that closes tells the others it waits no more; one that
 * dies unclosed keeps its turns until its announcements run out, each notice aimed at it costing the waiters
 * elsewhere a poll. An uncontended lock costs no notice; an announcement that arrives
 * just after this store released that name (the waiter's attempt crossed the release) is answered with a release
 * notice to its store at once. Other notices (announcements, a release whose statement could not carry its notice,
 * semaphores' releases) go out on a background thread through the store's pool (never on the caller's release); the
 * listener
 * holds one dedicated connection outside the pool and, after reconnecting, wakes every local waiter once, since
 * notices may have been missed meanwhile; it checks that connection every few seconds, since one the network
 * dropped silently never fails a read. Semaphores are told the same way with verbs of their own ({@code sw}, {@code
 * sr}), which wake the store's permit waiters: a semaphore and a lock of the same name never wake each other's
 * waiters (stores that know only {@code w} and {@code r} ignore them, and their semaphore waiters poll).
 */
final class PostgresNotices implements RemoteWakeups {

    private static final System.Logger LOG = System.getLogger(PostgresNotices.class.getName());
    /** The pause between reconnection attempts of the listener. */
    static final long RECONNECT_PAUSE_MILLIS = 1000;
    /** A waiter's announcement that arrives this soon after our release of its name is answered at once. */
    private static final long LATE_ANNOUNCEMENT_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final int MAX_TRACKED = 10_000;
    /**
     * The longest an announcement counts: a store announces for {@code 2 x pollMaxMillis}, and {@code pollMaxMillis}
     * is at most 60 s; a longer one is not a store's.
     */
    static final long MAX_ANNOUNCED_MILLIS = 120_000;
    /** The most announcements of other stores kept, over every name: a flood of names or ids cannot grow past it. */
    static final int MAX_KEPT_ANNOUNCEMENTS = 20_000;
    /** The most notices waiting to be sent; past it a notice is dropped, costing its waiter a poll. */
    private static final int MAX_QUEUED_NOTICES = 100_000;
    /** PostgreSQL's limit on a notice's payload: it must be shorter than this many bytes. */
    private static final int MAX_PAYLOAD_BYTES = 8000;
    /** How often, at most, the announcements of every name are swept for those that ran out. */
    private static final long PRUNE_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);
    /**
     * A store id as announced: hex digits, few enough that {@code distlock_r_} and the id fit a channel name (63
     * bytes). An announcement with another id is not one of ours; a notice aimed at it could not be sent, and would
     * take the other notices of its batch down with it.
     */
    private static final java.util.regex.Pattern ID = java.util.regex.Pattern.compile("[0-9a-f]{1,52}");
    /**
     * How often the listener asks its connection a question: it only reads, so a connection the network dropped
     * without a word (a middlebox that forgot it) would otherwise go unnoticed for hours of TCP keepalive, and this
     * store's waiters would hear no release elsewhere until their next poll. The answer waits at most the socket
     * timeout; a failure reconnects, which wakes every local waiter.
     */
    static final long LIVENESS_CHECK_MILLIS = 5000;
    /** How long a closing store waits for the answer to its notice that it waits no more. */
    private static final int GONE_TIMEOUT_MILLIS = 1000;

    private final DataSource direct;
    private final DataSource pool;
    /** The table's channel: announcements, and release notices for every store. */
    private final String channel;
    /** This store's channel: release notices aimed at it. */
    private final String ownChannel;
    /** The locks' signals; also this table's key in {@link #JVM_IDS}. */
    private final ReleaseSignals signals;
    /** The semaphores' signals. */
    private final ReleaseSignals permitSignals;
    private final String store;
    /** One id for all stores of this JVM on the same table: they share release signals, so need no notices. */
    private static final ConcurrentHashMap<ReleaseSignals, String> JVM_IDS = new ConcurrentHashMap<>();
    /** The open stores of each id of this JVM: the last one to close tells the others the id waits no more. */
    private static final ConcurrentHashMap<String, Integer> OPEN_BY_ID = new ConcurrentHashMap<>();
    /** The ids of this JVM that announced a wait since their stores opened. */
    private static final java.util.Set<String> ANNOUNCED_IDS = ConcurrentHashMap.newKeySet();

    private final String me;
    private final long wantedForNanos;
    private final ConcurrentHashMap<Named, Announcers> wantedElsewhere = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Named, Long> announcedAt = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Named, Long> releasedAt = new ConcurrentHashMap<>();
    private final java.util.concurrent.CountDownLatch listenTried = new java.util.concurrent.CountDownLatch(1);
    /** Bounded: a peer that floods the channel (each {@code h} asks for a notice per name we wait for) drops notices. */
    private final LinkedBlockingQueue<Notice> outgoing = new LinkedBlockingQueue<>(MAX_QUEUED_NOTICES);
    /** The announcements kept in {@link #wantedElsewhere}, over every name, run out or not yet dropped. */
    private final java.util.concurrent.atomic.AtomicInteger keptAnnouncements =
            new java.util.concurrent.atomic.AtomicInteger();
    private volatile long lastPrune = System.nanoTime();
    private final Thread listener;
    private final Thread sender;
    private volatile boolean closed;
    private final AtomicBoolean closeCalled = new AtomicBoolean();
    private volatile long lastCleanup = System.nanoTime();
    private volatile Connection listening;
    /** The lock whose release notice this thread's release statement carried: {@link #released} sends it no more. */
    private final ThreadLocal<Named> toldInRelease = new ThreadLocal<>();

    /**
     * Notices for {@code table}: {@code direct} opens the listener's own connection, {@code pool} sends; a remote
     * waiter's announcement counts for {@code wantedForMillis} (it announces again at half that while it waits).
     * Returns once the listener listens (or has failed once; it then keeps trying), at most after {@code
     * readyWithinMillis}, so a store just opened hears the announcements of waiters that start after it.
     */
    PostgresNotices(DataSource direct, DataSource pool, String table, SharedSignals.Table tableSignals,
                    long wantedForMillis, long readyWithinMillis, String store) {
        this.direct = direct;
        this.pool = pool;
        this.channel = channel(table);
        this.signals = tableSignals.locks();
        this.permitSignals = tableSignals.permits();
        synchronized (JVM_IDS) { // with close: an id is dropped when its last store closes, never while one opens
            this.me = JVM_IDS.computeIfAbsent(signals,
                    k -> UUID.randomUUID().toString().replace("-", "").substring(0, 16));
            OPEN_BY_ID.merge(me, 1, Integer::sum);
        }
        this.ownChannel = channelOf(me);
        this.wantedForNanos = TimeUnit.MILLISECONDS.toNanos(wantedForMillis);
        this.store = store;
        this.listener = new Thread(this::listen, "distlock-pg-listen");
        this.sender = new Thread(this::send, "distlock-pg-notify");
        listener.setDaemon(true);
        sender.setDaemon(true);
        listener.start();
        sender.start();
        try {
            listenTried.await(readyWithinMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the listener goes on starting in the background
        }
    }

    /** The channel of a table: {@code distlock_} and the table name (lower case, dots as '_'), at most 63 bytes. */
    static String channel(String table) {
        String name = "distlock_" + table.toLowerCase(java.util.Locale.ROOT).replace('.', '_');
        return name.length() <= 63 ? name
                : name.substring(0, 54) + "_" + Integer.toHexString(name.hashCode() & 0x7fffffff);
    }

    /** The channel of the store (or stores of this JVM on one table) whose id is {@code id}. */
    private static String channelOf(String id) {
        return "distlock_r_" + id;
    }

    @Override
    public void waiting(String name) {
        waiting(new Named(Kind.LOCK, name));
    }

    @Override
    public void released(String name) {
        released(new Named(Kind.LOCK, name));
    }

    @Override
    public void permitWaiting(String name) {
        waiting(new Named(Kind.SEMAPHORE, name));
    }

    @Override
    public void permitReleased(String name) {
        released(new Named(Kind.SEMAPHORE, name));
    }

    private void waiting(Named wanted) {
        long now = System.nanoTime();
        Long last = announcedAt.get(wanted);
        if (last == null || now - last > wantedForNanos / 2) {
            announcedAt.put(wanted, now);
            ANNOUNCED_IDS.add(me);
            queue(new Notice(channel, announcement(wanted)));
        }
        if (announcedAt.size() > MAX_TRACKED) {
            announcedAt.entrySet().removeIf(e -> now - e.getValue() > wantedForNanos);
        }
    }

    /**
     * Frees the row of lock {@code name} if {@code token} holds it; when another store announced it waits for the
     * name, the same statement sends that store its release notice, at the release's commit (not waiting for its
     * flush: {@link PostgresDialect#releaseNotifying}) and only if the row was freed, so the notice costs no round
     * trip of its own. Without an announcement (or when the notice could not be sent: too long a payload, another
     * dialect) it is the plain release; a release that freed nothing or failed sent no notice nor took the store's
     * turn, and {@link #released} sends one from the background as before, to that store. A notice the server
     * refuses ({@link PostgresDialect#isNoticeRefused}) fails the statement, release and all: the plain release is
     * sent after it, so a notice never costs a release.
     */
    @Override
    public boolean release(Connection c, SqlDialect dialect, String name, String token) throws SQLException {
        toldInRelease.remove();
        Named wanted = new Named(Kind.LOCK, name);
        Announcers wanting = wantedElsewhere.get(wanted);
        if (wanting == null) {
            return RemoteWakeups.super.release(c, dialect, name, token); // nobody announced: no notice to build
        }
        String payload = releaseNotice(wanted);
        String next = fits(payload) ? wanting.first(System.nanoTime()) : null;
        if (next == null || !(dialect instanceof PostgresDialect pg)) {
            return RemoteWakeups.super.release(c, dialect, name, token);
        }
        boolean freed;
        try {
            freed = pg.releaseNotifying(c, name, token, channelOf(next), payload);
        } catch (SQLException e) {
            if (!PostgresDialect.isNoticeRefused(e)) {
                throw e;
            }
            // rolled back whole, release and all: released() sends the notice from the background as before
            LOG.log(System.Logger.Level.DEBUG, "store {0} sends a release notice apart, the server refused it in"
                    + " the release: {1}", store, e.toString());
            return RemoteWakeups.super.release(c, dialect, name, token);
        }
        if (freed) {
            wanting.told(next);
            toldInRelease.set(wanted);
        }
        return freed;
    }

    private void released(Named wanted) {
        long now = System.nanoTime();
        releasedAt.put(wanted, now); // a waiter's announcement may cross this release: see receive
        if (releasedAt.size() > MAX_TRACKED && now - lastCleanup > LATE_ANNOUNCEMENT_NANOS) {
            lastCleanup = now;
            releasedAt.entrySet().removeIf(e -> now - e.getValue() > LATE_ANNOUNCEMENT_NANOS);
        }
        if (wanted.kind() == Kind.LOCK) {
            Named told = toldInRelease.get();
            toldInRelease.remove();
            if (wanted.equals(told)) {
                return; // the release statement carried the notice
            }
        }
        Announcers wanting = wantedElsewhere.get(wanted);
        String next = wanting == null ? null : wanting.next(now);
        if (next == null) {
            return; // nobody elsewhere announced it, or every announcement ran out
        }
        queue(new Notice(channelOf(next), releaseNotice(wanted)));
    }

    /** This store's announcement that it waits for {@code wanted}: {@code <verb> <id> <millis> <name>}. */
    private String announcement(Named wanted) {
        return wanted.kind().waitVerb + " " + me + " " + TimeUnit.NANOSECONDS.toMillis(wantedForNanos) + " "
                + wanted.name();
    }

    /** This store's notice that {@code wanted} was released: {@code <verb> <id> <name>}. */
    private String releaseNotice(Named wanted) {
        return wanted.kind().releaseVerb + " " + me + " " + wanted.name();
    }

    /** The signals that wake this store's waiters of {@code kind}. */
    private ReleaseSignals signalsOf(Kind kind) {
        return kind == Kind.LOCK ? signals : permitSignals;
    }

    /**
     * Queues {@code notice} for the sender, unless it cannot be sent (a payload of {@link #MAX_PAYLOAD_BYTES} or
     * more: one such notice would fail the whole batch it is sent in) or {@link #MAX_QUEUED_NOTICES} wait already.
     */
    private void queue(Notice notice) {
        if (!fits(notice.payload()) || !outgoing.offer(notice)) {
            LOG.log(System.Logger.Level.DEBUG, "a notice of store {0} was dropped: too long, or too many queued",
                    store);
        }
    }

    /** Whether PostgreSQL takes {@code payload} as a notice's: one it refuses fails the statement that sends it. */
    private static boolean fits(String payload) {
        return payload.getBytes(java.nio.charset.StandardCharsets.UTF_8).length < MAX_PAYLOAD_BYTES;
    }

    /** How many other stores' announcements of lock {@code name} have not run out: for tests. */
    int announcers(String name) {
        Announcers wanting = wantedElsewhere.get(new Named(Kind.LOCK, name));
        return wanting == null ? 0 : wanting.live(System.nanoTime());
    }

    /** This store's id, whose channel is {@code distlock_r_} and the id: for tests. */
    String id() {
        return me;
    }

    /** How long the longest-lived announcement of {@code name} still counts, in milliseconds: for tests. */
    long liveForMillis(String name) {
        Announcers wanting = wantedElsewhere.get(new Named(Kind.LOCK, name));
        return wanting == null ? 0 : TimeUnit.NANOSECONDS.toMillis(wanting.liveFor(System.nanoTime()));
    }

    /** How many announcements of other stores are kept, of every name, run out or not: for tests. */
    int keptAnnouncements() {
        return wantedElsewhere.values().stream().mapToInt(Announcers::kept).sum();
    }

    /** How many ids this JVM's open stores use: for tests. */
    static int jvmIds() {
        return JVM_IDS.size();
    }

    /** How many other stores' announcements of lock {@code name} are kept, run out or not: for tests. */
    int kept(String name) {
        Announcers wanting = wantedElsewhere.get(new Named(Kind.LOCK, name));
        return wanting == null ? 0 : wanting.kept();
    }

    private void listen() {
        while (!closed) {
            try (Connection c = direct.getConnection(); Statement s = c.createStatement()) {
                listening = c;
                s.execute("LISTEN \"" + ownChannel + "\"");
                // announcements were missed (made before this store opened, or while this connection was down): ask
                // the waiting stores to repeat them to our channel; on this connection, not the pool, and before the
                // constructor returns, so it costs the store's callers nothing
                s.execute("NOTIFY \"" + channel + "\", 'h " + me + " listening'");
                s.execute("LISTEN \"" + channel + "\"");
                signals.signalAll(); // releases may have gone unannounced while this connection was down
                permitSignals.signalAll();
                listenTried.countDown(); // after the wake-up above: a store just opened has had it
                PGConnection pg = c.unwrap(PGConnection.class);
                long checkedAt = System.nanoTime();
                while (!closed) {
                    PGNotification[] notices = pg.getNotifications(1000);
                    if (notices != null) {
                        for (PGNotification n : notices) {
                            receive(n.getParameter(), ownChannel.equals(n.getName()));
                        }
                    }
                    if (System.nanoTime() - checkedAt >= TimeUnit.MILLISECONDS.toNanos(LIVENESS_CHECK_MILLIS)) {
                        s.execute("SELECT 1"); // notices that arrive meanwhile wait for the next getNotifications
                        checkedAt = System.nanoTime();
                    }
                }
            } catch (SQLException | RuntimeException e) {
                listenTried.countDown();
                if (!closed) {
                    LOG.log(System.Logger.Level.DEBUG, "release notices of store {0} interrupted, reconnecting: {1}",
                            store, e.toString());
                    pause();
                }
            } finally {
                listening = null;
            }
        }
    }

    /**
     * Reads one notice: {@code w <jvm> <millis> <name>}, {@code r <jvm> <name>} (their semaphore forms {@code sw} and
     * {@code sr}), {@code h <jvm> listening} or {@code g <jvm> closed}; those of this JVM's stores are ignored. A
     * release notice {@code aimed} at this store
     * that finds no local waiter of the name is passed on to every store. A store that (again) listens is sent this
     * store's announcements of the names it still waits for: without them it would tell these waiters of no release
     * until they announce again, at their next poll.
     */
    private void receive(String payload, boolean aimed) {
        String[] f = payload.split(" ", 4);
        if (f.length >= 3 && !f[1].equals(me) && ID.matcher(f[1]).matches()) {
            Kind waits = Kind.waitingBy(f[0]);
            Kind releases = Kind.releasedBy(f[0]);
            if (waits != null && f.length == 4 && f[3].length() <= JdbcBackend.MAX_NAME_LENGTH) {
                Named wanted = new Named(waits, f[3]);
                try {
                    long now = System.nanoTime();
                    long millis = Long.parseLong(f[2]);
                    if (millis < 1) {
                        return; // not one of ours
                    }
                    // at most what a store announces: a huge duration would overflow the clock and count for good
                    long until = now + TimeUnit.MILLISECONDS.toNanos(Math.min(millis, MAX_ANNOUNCED_MILLIS));
                    prune(now);
                    Announcers wanting = wantedElsewhere.get(wanted);
                    if (wanting == null && keptAnnouncements.get() < MAX_KEPT_ANNOUNCEMENTS) {
                        wanting = wantedElsewhere.computeIfAbsent(wanted, k -> new Announcers(keptAnnouncements));
                    }
                    if (wanting != null) { // else a flood: this waiter is not told of releases here, and polls
                        wanting.heard(f[1], until, now);
                    }
                    Long released = releasedAt.get(wanted);
                    if (released != null && now - released < LATE_ANNOUNCEMENT_NANOS) {
                        // the waiter found it held just before our release: its announcement came too late for it
                        queue(new Notice(channelOf(f[1]), releaseNotice(wanted)));
                    }
                } catch (NumberFormatException e) {
                    // not one of ours: another program on the channel
                }
            } else if (f[0].equals("h")) {
                for (Named wanted : announcedAt.keySet()) {
                    if (signalsOf(wanted.kind()).hasWaiters(wanted.name())) {
                        queue(new Notice(channelOf(f[1]), announcement(wanted)));
                    }
                }
            } else if (f[0].equals("g")) {
                forget(f[1]);
            } else if (releases != null
                    && payload.length() - f[0].length() - f[1].length() - 2 <= JdbcBackend.MAX_NAME_LENGTH) {
                Named wanted = new Named(releases, payload.substring(f[0].length() + f[1].length() + 2));
                ReleaseSignals local = signalsOf(releases);
                if (aimed && !local.hasWaiters(wanted.name())) {
                    queue(new Notice(channel, releaseNotice(wanted))); // our waiter is gone: tell everyone
                }
                local.signal(wanted.name()); // also seen by an attempt in flight, which takes its ticket after it
            }
        }
    }

    /**
     * Drops the announcements that ran out, and the names left with none, when over {@link #MAX_TRACKED} names or
     * {@link #MAX_KEPT_ANNOUNCEMENTS} announcements are kept; at most every {@link #PRUNE_EVERY_NANOS}, since a sweep
     * costs every name kept.
     */
    private void prune(long now) {
        if ((wantedElsewhere.size() > MAX_TRACKED || keptAnnouncements.get() >= MAX_KEPT_ANNOUNCEMENTS)
                && now - lastPrune > PRUNE_EVERY_NANOS) {
            lastPrune = now;
            wantedElsewhere.values().removeIf(a -> a.live(now) == 0);
        }
    }

    /**
     * Store {@code id} closed: it is told no more releases. A release of ours just before may have been aimed at it:
     * that notice goes to every store.
     */
    private void forget(String id) {
        long now = System.nanoTime();
        wantedElsewhere.forEach((wanted, wanting) -> {
            Long released = releasedAt.get(wanted);
            if (wanting.forget(id) && released != null && now - released < LATE_ANNOUNCEMENT_NANOS) {
                queue(new Notice(channel, releaseNotice(wanted)));
            }
        });
    }

    private void send() {
        while (!closed) {
            List<Notice> batch = new ArrayList<>();
            try {
                batch.add(outgoing.take());
            } catch (InterruptedException e) {
                return; // closing
            }
            outgoing.drainTo(batch, 500);
            try (Connection c = pool.getConnection();
                 PreparedStatement ps = c.prepareStatement(
                         "SELECT pg_notify(n.c, n.p) FROM unnest(?::text[], ?::text[]) AS n(c, p)")) {
                ps.setArray(1, c.createArrayOf("text", batch.stream().map(Notice::channel).toArray()));
                ps.setArray(2, c.createArrayOf("text", batch.stream().map(Notice::payload).toArray()));
                ps.execute();
            } catch (SQLException | RuntimeException e) {
                if (!closed) {
                    // waiters elsewhere fall back to their next poll
                    LOG.log(System.Logger.Level.DEBUG, "release notices of store {0} not sent: {1}", store,
                            e.toString());
                }
            }
        }
    }

    private void pause() {
        try {
            Thread.sleep(RECONNECT_PAUSE_MILLIS); // between reconnection attempts to a database that is down
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }

    /**
     * Tells the other stores of the table that this id waits no more ({@code g}), through the pool and before the
     * listener stops: else a release elsewhere aimed at it in its turn would wake nobody, and the waiters of other
     * stores would wait for their poll, until its announcements ran out ({@code 2 x pollMaxMillis}). A store that
     * dies without closing costs them that. Waits at most the pool's connection timeout for a connection, then
     * {@link #GONE_TIMEOUT_MILLIS} for the answer.
     */
    private void sayGone() {
        try (Connection c = pool.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, ?)")) {
            c.setNetworkTimeout(Runnable::run, GONE_TIMEOUT_MILLIS); // a hung server delays close() this long at most
            ps.setString(1, channel);
            ps.setString(2, "g " + me + " closed");
            ps.execute();
        } catch (SQLException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "store {0} closing could not tell the others it waits no more: {1}",
                    store, e.toString());
        }
    }

    /** One notice to send: its channel and its payload. */
    private record Notice(String channel, String payload) {
    }

    /**
     * What a notice is about, told by its verbs: a lock ({@code w}, {@code r}) or a semaphore ({@code sw}, {@code
     * sr}). The name itself travels as given (PostgreSQL names hold no NUL, so any name fits a payload), and the verb
     * keeps the two name spaces apart.
     */
    private enum Kind {
        LOCK("w", "r"),
        SEMAPHORE("sw", "sr");

        final String waitVerb;
        final String releaseVerb;

        Kind(String waitVerb, String releaseVerb) {
            this.waitVerb = waitVerb;
            this.releaseVerb = releaseVerb;
        }

        /** The kind whose announcement verb is {@code verb}, or null. */
        static Kind waitingBy(String verb) {
            return verb.equals(LOCK.waitVerb) ? LOCK : verb.equals(SEMAPHORE.waitVerb) ? SEMAPHORE : null;
        }

        /** The kind whose release verb is {@code verb}, or null. */
        static Kind releasedBy(String verb) {
            return verb.equals(LOCK.releaseVerb) ? LOCK : verb.equals(SEMAPHORE.releaseVerb) ? SEMAPHORE : null;
        }
    }

    /** A lock's or a semaphore's name, as this store keeps what it announced, released and heard announced. */
    private record Named(Kind kind, String name) {
    }

    /**
     * The other stores that announced they wait for one name, each with the time its announcement runs out, in the
     * order they are told of releases: the one told longest ago (or never) first.
     */
    private static final class Announcers {
        private static final int MIN_PRUNE_ABOVE = 16;
        private final LinkedHashMap<String, Long> until = new LinkedHashMap<>();
        /** The announcements kept over every name: one more for each id kept here, one fewer for each dropped. */
        private final java.util.concurrent.atomic.AtomicInteger kept;

        Announcers(java.util.concurrent.atomic.AtomicInteger kept) {
            this.kept = kept;
        }

        /** Above this many kept announcements, {@link #heard} drops those that ran out. */
        private int pruneAbove = MIN_PRUNE_ABOVE;

        /**
         * Store {@code id} waits until {@code untilNanos}; a store heard before keeps its turn. Drops the
         * announcements that ran out once twice as many are kept as were live at the last such drop, so a name this
         * store never releases keeps about the stores that wait at once, not every store that ever waited.
         */
        synchronized void heard(String id, long untilNanos, long now) {
            if (!until.containsKey(id)) {
                if (kept.get() >= MAX_KEPT_ANNOUNCEMENTS) {
                    return; // a flood of names or ids: this store is not told of releases, and polls
                }
                kept.incrementAndGet();
            }
            until.put(id, untilNanos);
            if (until.size() > pruneAbove) {
                dropRunOut(now);
                pruneAbove = Math.max(MIN_PRUNE_ABOVE, 2 * until.size());
            }
        }

        /** Drops the announcements that ran out by {@code now}. */
        private void dropRunOut(long now) {
            int before = until.size();
            until.values().removeIf(u -> now - u > 0);
            kept.addAndGet(until.size() - before);
        }

        /** The store to tell of a release now, moved to the end of the turns; null if every announcement ran out. */
        synchronized String next(long now) {
            String first = first(now);
            if (first != null) {
                told(first);
            }
            return first;
        }

        /**
         * The store to tell of a release now, left in its turn until {@link #told} (a release statement that may fail
         * aims at it); null if every announcement ran out.
         */
        synchronized String first(long now) {
            dropRunOut(now);
            Iterator<String> ids = until.keySet().iterator();
            return ids.hasNext() ? ids.next() : null;
        }

        /** Store {@code id} was told of a release: moved to the end of the turns, if it is still kept. */
        synchronized void told(String id) {
            Long untilNanos = until.remove(id);
            if (untilNanos != null) {
                until.put(id, untilNanos);
            }
        }

        /** Drops store {@code id}; whether it was kept. */
        synchronized boolean forget(String id) {
            if (until.remove(id) == null) {
                return false;
            }
            kept.decrementAndGet();
            return true;
        }

        /** How many announcements are kept, run out or not. */
        synchronized int kept() {
            return until.size();
        }

        /** How long the longest-lived announcement still counts, in nanoseconds; 0 if every one ran out. */
        synchronized long liveFor(long now) {
            return until.values().stream().mapToLong(u -> u - now).max().orElse(0);
        }

        /** How many announcements have not run out. */
        synchronized int live(long now) {
            dropRunOut(now);
            return until.size();
        }
    }

    @Override
    public void close() {
        if (!closeCalled.compareAndSet(false, true)) {
            return;
        }
        boolean last;
        synchronized (JVM_IDS) {
            last = OPEN_BY_ID.compute(me, (k, n) -> n == null || n <= 1 ? null : n - 1) == null;
            if (last) {
                JVM_IDS.remove(signals, me);
            }
        }
        if (last && ANNOUNCED_IDS.remove(me)) {
            sayGone();
        }
        closed = true;
        sender.interrupt();
        listener.interrupt();
        Connection c = listening;
        if (c != null) {
            try {
                c.close(); // unblocks the listener's read
            } catch (SQLException e) {
                // already broken: the listener ends either way
            }
        }
    }
}
