package io.distlock.jdbc;

import io.distlock.spi.ReleaseSignals;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Cross-process wake-ups on PostgreSQL with {@code LISTEN/NOTIFY}, on one channel per lock table. A waiter that finds
 * a lock held announces it ({@code w}); a store that releases a lock some other store announced it wants sends a
 * release notice ({@code r}), and each store's listener wakes its local waiters of that name. So an uncontended lock
 * costs no notice, and notices are sent only where someone waits; an announcement that arrives just after this
 * store released that name (the waiter's attempt crossed the release) is answered with a release notice at once.
 * Notices go out on a background thread through the store's pool (never on the caller's release); the listener
 * holds one dedicated connection outside the pool and, after reconnecting, wakes every local waiter once, since
 * notices may have been missed meanwhile; it checks that connection every few seconds, since one the network
 * dropped silently never fails a read.
 */
final class PostgresNotices implements RemoteWakeups {

    private static final System.Logger LOG = System.getLogger(PostgresNotices.class.getName());
    /** The pause between reconnection attempts of the listener. */
    static final long RECONNECT_PAUSE_MILLIS = 1000;
    /** A waiter's announcement that arrives this soon after our release of its name is answered at once. */
    private static final long LATE_ANNOUNCEMENT_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final int MAX_TRACKED = 10_000;
    /**
     * How often the listener asks its connection a question: it only reads, so a connection the network dropped
     * without a word (a middlebox that forgot it) would otherwise go unnoticed for hours of TCP keepalive, and this
     * store's waiters would hear no release elsewhere until their next poll. The answer waits at most the socket
     * timeout; a failure reconnects, which wakes every local waiter.
     */
    static final long LIVENESS_CHECK_MILLIS = 5000;

    private final DataSource direct;
    private final DataSource pool;
    private final String channel;
    private final ReleaseSignals signals;
    private final String store;
    /** One id for all stores of this JVM on the same table: they share release signals, so need no notices. */
    private static final ConcurrentHashMap<ReleaseSignals, String> JVM_IDS = new ConcurrentHashMap<>();

    private final String me;
    private final long wantedForNanos;
    private final ConcurrentHashMap<String, Long> wantedElsewhereUntil = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Long> announcedAt = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Long> releasedAt = new ConcurrentHashMap<>();
    private final java.util.concurrent.CountDownLatch listenTried = new java.util.concurrent.CountDownLatch(1);
    private final LinkedBlockingQueue<String> outgoing = new LinkedBlockingQueue<>();
    private final Thread listener;
    private final Thread sender;
    private volatile boolean closed;
    private volatile long lastCleanup = System.nanoTime();
    private volatile Connection listening;

    /**
     * Notices for {@code table}: {@code direct} opens the listener's own connection, {@code pool} sends; a remote
     * waiter's announcement counts for {@code wantedForMillis} (it announces again at half that while it waits).
     * Returns once the listener listens (or has failed once; it then keeps trying), at most after {@code
     * readyWithinMillis}, so a store just opened hears the announcements of waiters that start after it.
     */
    PostgresNotices(DataSource direct, DataSource pool, String table, ReleaseSignals signals, long wantedForMillis,
                    long readyWithinMillis, String store) {
        this.direct = direct;
        this.pool = pool;
        this.channel = channel(table);
        this.signals = signals;
        this.me = JVM_IDS.computeIfAbsent(signals, k -> UUID.randomUUID().toString().substring(0, 8));
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

    @Override
    public void waiting(String name) {
        long now = System.nanoTime();
        Long last = announcedAt.get(name);
        if (last == null || now - last > wantedForNanos / 2) {
            announcedAt.put(name, now);
            outgoing.add("w " + me + " " + TimeUnit.NANOSECONDS.toMillis(wantedForNanos) + " " + name);
        }
        if (announcedAt.size() > MAX_TRACKED) {
            announcedAt.entrySet().removeIf(e -> now - e.getValue() > wantedForNanos);
        }
    }

    @Override
    public void released(String name) {
        long now = System.nanoTime();
        releasedAt.put(name, now); // a waiter's announcement may cross this release: see receive
        if (releasedAt.size() > MAX_TRACKED && now - lastCleanup > LATE_ANNOUNCEMENT_NANOS) {
            lastCleanup = now;
            releasedAt.entrySet().removeIf(e -> now - e.getValue() > LATE_ANNOUNCEMENT_NANOS);
        }
        Long until = wantedElsewhereUntil.get(name);
        if (until == null) {
            return;
        }
        if (System.nanoTime() - until > 0) {
            wantedElsewhereUntil.remove(name, until);
            return;
        }
        outgoing.add("r " + me + " " + name);
    }

    private void listen() {
        while (!closed) {
            try (Connection c = direct.getConnection(); Statement s = c.createStatement()) {
                listening = c;
                s.execute("LISTEN \"" + channel + "\"");
                listenTried.countDown();
                signals.signalAll(); // releases may have gone unannounced while this connection was down
                PGConnection pg = c.unwrap(PGConnection.class);
                long checkedAt = System.nanoTime();
                while (!closed) {
                    PGNotification[] notices = pg.getNotifications(1000);
                    if (notices != null) {
                        for (PGNotification n : notices) {
                            receive(n.getParameter());
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
     * Reads one notice: {@code w <jvm> <millis> <name>} or {@code r <jvm> <name>}; those of this JVM's stores are
     * ignored.
     */
    private void receive(String payload) {
        String[] f = payload.split(" ", 4);
        if (f.length >= 3 && !f[1].equals(me)) {
            if (f[0].equals("w") && f.length == 4) {
                try {
                    long now = System.nanoTime();
                    wantedElsewhereUntil.put(f[3], now + TimeUnit.MILLISECONDS.toNanos(Long.parseLong(f[2])));
                    Long released = releasedAt.get(f[3]);
                    if (released != null && now - released < LATE_ANNOUNCEMENT_NANOS) {
                        // the waiter found it held just before our release: its announcement came too late for it
                        outgoing.add("r " + me + " " + f[3]);
                    }
                } catch (NumberFormatException e) {
                    // not one of ours: another program on the channel
                }
            } else if (f[0].equals("r")) {
                signals.signal(payload.substring(f[0].length() + f[1].length() + 2));
            }
        }
        long now = System.nanoTime();
        if (wantedElsewhereUntil.size() > MAX_TRACKED) {
            wantedElsewhereUntil.entrySet().removeIf(e -> now - e.getValue() > 0);
        }
    }

    private void send() {
        while (!closed) {
            List<String> batch = new ArrayList<>();
            try {
                batch.add(outgoing.take());
            } catch (InterruptedException e) {
                return; // closing
            }
            outgoing.drainTo(batch, 500);
            try (Connection c = pool.getConnection();
                 PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, p) FROM unnest(?) AS p")) {
                ps.setString(1, channel);
                ps.setArray(2, c.createArrayOf("text", batch.toArray()));
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

    @Override
    public void close() {
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
