package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Arguments;
import io.distlock.Lease;
import io.distlock.LockStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Attacks on {@link MariaDbTurns} against the machine's MariaDB: a turn lock held by a client that makes no progress
 * (a hung head store, played by a plain connection that holds the turn lock), a head store without waiters of its
 * own, and what single tries and short waits do meanwhile. The turn lock is advisory: a lost turn may cost a poll,
 * never a single try's attempt, nor a short wait on a lock that sits free.
 */
@ExtendWith(Databases.class)
class MariaDbTurnsAttackTest {

    /** The queued waiters' safety poll: far above every bound asserted below. */
    private static final String SLOW_POLL = "distlock.pollMinMillis=2&distlock.pollMaxMillis=30000";

    /** A plain connection to the test database on the machine's MariaDB. */
    private static Connection raw() throws Exception {
        return DriverManager.getConnection(Databases.mariadb().replaceFirst("\\?.*$", "") + "?user=root");
    }

    /** The parameter of the turn lock of {@code name} in {@code table}, as the stores compute it. */
    private static String turnKey(String table, String name) {
        return new MariaDbTurns(null, table, null, 1, 1, 1000, "attack").turnKey(name);
    }

    /** Takes the turn lock of {@code name} on {@code c} and keeps it: a head store that hangs. */
    private static void holdTurn(Connection c, String table, String name) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("SELECT GET_LOCK(" + MariaDbTurns.TURN_LOCK + ", 0)")) {
            ps.setString(1, turnKey(table, name));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getInt(1)).as("turn lock taken").isEqualTo(1);
            }
        }
    }

    /** Whether a client holds the turn lock of {@code name}. */
    private static boolean turnHeld(Connection c, String table, String name) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("SELECT IS_USED_LOCK(" + MariaDbTurns.TURN_LOCK + ")")) {
            ps.setString(1, turnKey(table, name));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                rs.getLong(1);
                return !rs.wasNull();
            }
        }
    }

    /** Waits until a store's worker waits in GET_LOCK for the turn lock of {@code name}. */
    private static void awaitQueued(Connection c, String table, String name) {
        String key = turnKey(table, name);
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10)).until(() -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                    + " WHERE STATE = 'User lock' AND INFO LIKE ?")) {
                ps.setString(1, "%" + key + "%");
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1) > 0;
                }
            }
        });
    }

    /**
     * A store queued behind a hung turn holder, its waiter gone, the lock free: the store's next acquire, with a wait
     * a fifteenth of the safety poll, must make its first attempt (the lock sat free the whole time), not wait for
     * the turn its previous acquire queued for.
     */
    @Test
    void aShortWaitAfterAQueuedWaitMakesItsFirstAttempt() throws Exception {
        String table = Databases.uniqueTable("turnatk");
        String name = "atk:short";
        try (Connection hung = raw();
                LockStore holder = LockStore.open(Databases.withOptions(Databases.mysql(), "distlock.table=" + table));
                LockStore store = LockStore.open(Databases.withOptions(Databases.mariadb(), "distlock.table=" + table
                        + "&" + SLOW_POLL))) {
            holdTurn(hung, table, name);
            Lease held = holder.lock(name).acquire();
            assertThat(store.lock(name).tryAcquire(Duration.ofMillis(500))).isEmpty(); // queued behind the hung turn
            held.release();

            Optional<Lease> shortWait = store.lock(name).tryAcquire(Duration.ofSeconds(2));
            assertThat(shortWait).as("tryAcquire(2 s) on a lock free the whole time, pollMaxMillis 30 s").isPresent();
            shortWait.get().release();
        }
    }

    /**
     * Two stores of one URL share release signals; one waits, queued behind a hung turn holder. The other store's
     * {@code tryAcquire()} on the free lock, after a wait of its own, is one attempt that never waits: it must reach
     * the database and get the lock.
     */
    @Test
    void aSingleTryReachesTheDatabaseWhileAStoreOfTheSameUrlWaits() throws Exception {
        String table = Databases.uniqueTable("turnatk");
        String name = "atk:single";
        String uri = Databases.withOptions(Databases.mariadb(), "distlock.table=" + table + "&" + SLOW_POLL);
        ExecutorService threads = Executors.newCachedThreadPool();
        try (Connection hung = raw();
                LockStore holder = LockStore.open(Databases.withOptions(Databases.mysql(), "distlock.table=" + table));
                LockStore waiting = LockStore.open(uri); LockStore store = LockStore.open(uri)) {
            holdTurn(hung, table, name);
            Lease held = holder.lock(name).acquire();
            Future<Optional<Lease>> queued = threads.submit(() -> waiting.lock(name).tryAcquire(Duration.ofMinutes(2)));
            awaitQueued(hung, table, name);
            assertThat(store.lock(name).tryAcquire(Duration.ofMillis(500))).isEmpty();
            held.release(); // free now; the queued waiter's next poll is 15-30 s away

            Optional<Lease> single = store.lock(name).tryAcquire();
            assertThat(single).as("tryAcquire() on a free lock while a store of the same URL waits").isPresent();
            single.get().release();
            queued.cancel(true);
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * A queued waiter behind a hung turn holder tries the lock every {@code pollMaxMillis}, as documented: the
     * gaps between its acquire statements (counted on the wire) stay near one {@code pollMaxMillis}.
     */
    @Test
    void aQueuedWaiterTriesTheLockEveryPollMax() throws Exception {
        String table = Databases.uniqueTable("turnatk");
        String name = "atk:poll";
        long pollMillis = 1000;
        ExecutorService threads = Executors.newCachedThreadPool();
        try (Connection hung = raw();
                RequestCountingProxy acquires = new RequestCountingProxy(Databases.mariadb(), "INSERT INTO");
                LockStore holder = LockStore.open(Databases.withOptions(Databases.mysql(), "distlock.table=" + table));
                LockStore store = LockStore.open(acquires.route(Databases.withOptions(Databases.mariadb(),
                        "distlock.table=" + table + "&distlock.pollMinMillis=2&distlock.pollMaxMillis="
                        + pollMillis)))) {
            holdTurn(hung, table, name);
            Lease held = holder.lock(name).acquire();
            Future<Optional<Lease>> queued = threads.submit(() -> store.lock(name).tryAcquire(Duration.ofMinutes(2)));
            awaitQueued(hung, table, name);
            List<Long> at = new ArrayList<>();
            int seen = acquires.requests();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
            while (System.nanoTime() < end) {
                int now = acquires.requests();
                if (now != seen) {
                    at.add(System.nanoTime());
                    seen = now;
                }
                java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
            long maxGap = 0;
            for (int i = 1; i < at.size(); i++) {
                maxGap = Math.max(maxGap, at.get(i) - at.get(i - 1));
            }
            System.out.println("MariaDbTurnsAttackTest: " + at.size() + " acquire statements in 8 s, longest gap "
                    + TimeUnit.NANOSECONDS.toMillis(maxGap) + " ms, pollMaxMillis " + pollMillis);
            assertThat(at.size()).as("acquire statements of the queued waiter in 8 s").isGreaterThanOrEqualTo(5);
            assertThat(TimeUnit.NANOSECONDS.toMillis(maxGap)).as("longest gap between its attempts, ms")
                    .isLessThanOrEqualTo(pollMillis + 350);
            queued.cancel(true);
            held.release();
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * A store whose last turn came after a long wait polls less often while queued (twice that wait), but never less
     * often than once per wait in the queue (5 s, or half the socket timeout): queued again behind a turn holder that
     * hangs, its waiter still takes the lock, free all along, within that bound (2 s here, where twice its last wait
     * is 5 s).
     */
    @Test
    void aQueuedWaiterAfterALongTurnWaitStillTriesTheLockWithinOneQueueWait() throws Exception {
        String table = Databases.uniqueTable("turnatk");
        String name = "atk:stretch";
        long pollMillis = 500;
        ExecutorService threads = Executors.newCachedThreadPool();
        try (Connection hung = raw(); Connection probe = raw();
                LockStore holder = LockStore.open(Databases.withOptions(Databases.mysql(), "distlock.table=" + table));
                LockStore store = LockStore.open(Databases.withOptions(Databases.mariadb(), "distlock.table=" + table
                        + "&distlock.pollMinMillis=2&distlock.pollMaxMillis=" + pollMillis
                        + "&distlock.socketTimeoutMillis=4000"))) { // one wait in the queue: 2 s
            holdTurn(hung, table, name);
            Lease held = holder.lock(name).acquire();
            Future<Lease> first = threads.submit(() -> store.lock(name).acquire());
            awaitQueued(probe, table, name);
            // the wait for the turn is what this test makes long: 2.5 s, whose double is past the bound
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2500));
            try (Statement st = hung.createStatement()) {
                st.execute("DO RELEASE_ALL_LOCKS()"); // the turn comes
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> turnHeld(probe, table, name));
            Future<Boolean> hangsNext = threads.submit(() -> { // queues behind the store's turn, then keeps it
                try (PreparedStatement ps = hung.prepareStatement("SELECT GET_LOCK(" + MariaDbTurns.TURN_LOCK
                        + ", 60)")) {
                    ps.setString(1, turnKey(table, name));
                    try (ResultSet rs = ps.executeQuery()) {
                        return rs.next() && rs.getInt(1) == 1;
                    }
                }
            });
            awaitQueued(probe, table, name);
            held.release();
            Lease lease = first.get(20, TimeUnit.SECONDS); // taken through its turn
            long released = System.nanoTime();
            lease.release(); // the turn goes to the hung connection
            Lease again = store.lock(name).acquire(); // asked at once: queued behind the hung turn, the lock free
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released);
            again.release();
            assertThat(hangsNext.get(20, TimeUnit.SECONDS)).as("the hung connection held the turn").isTrue();
            System.out.println("MariaDbTurnsAttackTest: after a 2.5 s wait for its last turn, the queued waiter took"
                    + " the free lock " + tookMillis + " ms after its release, one wait in the queue 2 s");
            assertThat(tookMillis).as("ms until the queued waiter's poll took the free lock")
                    .isLessThanOrEqualTo(2000 + 1000);
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * Two stores of one URL in this JVM share release signals. A store whose own waiter gave up must pass the turn
     * on, even while the other store's waiter (queued behind it) still waits: else that waiter is let through only
     * once per {@code pollMaxMillis}, however soon the lock is released (by a third store of the URL, whose release
     * wakes it in-process).
     */
    @Test
    void aHeadStoreWhoseWaiterLeftPassesTheTurnOnWhileAnotherStoreOfTheUrlWaits() throws Exception {
        String table = Databases.uniqueTable("turnatk");
        String name = "atk:shared";
        String uri = Databases.withOptions(Databases.mariadb(), "distlock.table=" + table + "&" + SLOW_POLL);
        ExecutorService threads = Executors.newCachedThreadPool();
        try (Connection probe = raw(); LockStore holder = LockStore.open(uri); LockStore first = LockStore.open(uri);
                LockStore second = LockStore.open(uri)) {
            Lease held = holder.lock(name).acquire();
            Future<Optional<Lease>> gaveUp = threads.submit(() -> first.lock(name).tryAcquire(Duration.ofSeconds(2)));
            await().atMost(Duration.ofSeconds(20)).until(() -> turnHeld(probe, table, name)); // first at the head
            Future<Optional<Lease>> waiter = threads.submit(() -> second.lock(name).tryAcquire(Duration.ofMinutes(2)));
            awaitQueued(probe, table, name); // second queued behind it
            assertThat(gaveUp.get(20, TimeUnit.SECONDS)).isEmpty();
            long released = System.nanoTime();
            held.release();
            Optional<Lease> got = waiter.get(30, TimeUnit.SECONDS);
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released);
            System.out.println("MariaDbTurnsAttackTest: the other store's waiter took the lock " + tookMillis
                    + " ms after the release");
            assertThat(got).isPresent();
            got.get().release();
            assertThat(tookMillis).as("ms from the release to the other store's grant, pollMaxMillis 30 s")
                    .isLessThan(5000);
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * A store whose turn is queued behind another store's took the lock out of turn (a new acquire's first attempt
     * after its earlier waiter gave up; a queued waiter's safety poll does the same) and released it. Its next
     * acquire, asked at once, must queue behind the store whose turn it is, not take the lock back (S84): a store
     * that kept doing so held the lock turn after turn while the head store polled in vain, and the stores queued
     * behind that head waited in {@code GET_LOCK} until it timed out, polling meanwhile (the waiters curve, 16 stores
     * holding 20 ms: 3.0 acquire statements per acquisition where 1 is needed, 3-12 acquisitions per store).
     */
    @Test
    void aStoreThatTookTheLockOutOfTurnQueuesBehindTheHeadStore() throws Exception {
        String table = Databases.uniqueTable("turnatk");
        String name = "atk:outofturn";
        // the head store's back-off grows to 2 s; the store's turn stays queued 5 s after its waiter gave up
        String options = "distlock.table=" + table + "&distlock.pollMinMillis=2&distlock.pollMaxMillis=2000";
        ExecutorService threads = Executors.newCachedThreadPool();
        try (Connection probe = raw();
                LockStore holder = LockStore.open(Databases.withOptions(Databases.mysql(), "distlock.table=" + table));
                LockStore head = LockStore.open(Databases.withOptions(Databases.mariadb() + "&connectionAttributes=h",
                        options));
                LockStore store = LockStore.open(Databases.withOptions(Databases.mariadb() + "&connectionAttributes=s",
                        options))) {
            Lease held = holder.lock(name).acquire();
            Future<Long> headGrant = threads.submit(() -> {
                Lease lease = head.lock(name).acquire();
                long at = System.nanoTime();
                lease.release();
                return at;
            });
            await().atMost(Duration.ofSeconds(20)).until(() -> turnHeld(probe, table, name)); // head at the head
            Future<Optional<Lease>> gaveUp = threads.submit(() -> store.lock(name)
                    .tryAcquire(Duration.ofMillis(300)));
            awaitQueued(probe, table, name); // the store's turn queued behind the head's
            assertThat(gaveUp.get(20, TimeUnit.SECONDS)).isEmpty(); // its turn stays queued
            held.release();
            Lease outOfTurn = store.lock(name).acquire(); // a first attempt: the lock is free, the head polls
            long outAt = System.nanoTime();
            outOfTurn.release();
            Lease again = store.lock(name).acquire(); // asked at once
            long againAt = System.nanoTime();
            again.release();
            assertThat(headGrant.isDone() && headGrant.get() - outAt > 0 && headGrant.get() - againAt < 0)
                    .as("the head store (granted: %s) had the lock between the two grants of the store that took it"
                            + " out of turn", headGrant.isDone())
                    .isTrue();
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * The only live store, queued behind a turn holder that hangs (a partitioned process keeps its turn lock until
     * the server drops its connection, 8 hours by default), takes the free lock again and again with short waits.
     * The S84 deferral lets the store whose turn it is go first; a head that let a whole deferral pass without taking
     * the lock takes no turns, and each further deferral to it costs a poll for nothing: at most one is allowed (S85).
     */
    @Test
    void aStoreDefersAtMostOnceToAHeadThatTakesNoTurns() throws Exception {
        String table = Databases.uniqueTable("turnatk");
        String name = "atk:deadhead";
        ExecutorService threads = Executors.newCachedThreadPool();
        try (Connection hung = raw();
                LockStore holder = LockStore.open(Databases.withOptions(Databases.mysql(), "distlock.table=" + table));
                LockStore store = LockStore.open(Databases.withOptions(Databases.mariadb(), "distlock.table=" + table
                        + "&distlock.pollMinMillis=2&distlock.pollMaxMillis=3000"))) {
            holdTurn(hung, table, name);
            Lease held = holder.lock(name).acquire();
            Future<Optional<Lease>> gaveUp = threads.submit(() -> store.lock(name).tryAcquire(Duration.ofMillis(300)));
            awaitQueued(hung, table, name); // the store's turn queued behind the hung one
            assertThat(gaveUp.get(20, TimeUnit.SECONDS)).isEmpty();
            held.release();

            int missed = 0;
            for (int i = 0; i < 6; i++) {
                Optional<Lease> got = store.lock(name).tryAcquire(Duration.ofMillis(1500));
                if (got.isEmpty()) {
                    missed++;
                } else {
                    got.get().release();
                }
            }
            assertThat(missed).as("tryAcquire(1.5 s) of a lock free all along, 6 in a row, that returned empty"
                    + " (pollMaxMillis 3 s)").isLessThanOrEqualTo(1);
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * The head store a store deferred to dies (its turn connection killed, as a server does when a process dies):
     * the server grants the turn lock to the store's queued turn at once, and the deferred acquire makes its attempt
     * then, not at the end of its poll.
     */
    @Test
    void aDeferralEndsWhenTheHeadStoresTurnConnectionIsKilled() throws Exception {
        String table = Databases.uniqueTable("turnatk");
        String name = "atk:killedhead";
        ExecutorService threads = Executors.newCachedThreadPool();
        try (Connection hung = raw(); Connection probe = raw();
                LockStore holder = LockStore.open(Databases.withOptions(Databases.mysql(), "distlock.table=" + table));
                LockStore store = LockStore.open(Databases.withOptions(Databases.mariadb(), "distlock.table=" + table
                        + "&distlock.pollMinMillis=2&distlock.pollMaxMillis=30000"))) {
            holdTurn(hung, table, name);
            Lease held = holder.lock(name).acquire();
            Future<Optional<Lease>> gaveUp = threads.submit(() -> store.lock(name).tryAcquire(Duration.ofMillis(300)));
            awaitQueued(probe, table, name);
            assertThat(gaveUp.get(20, TimeUnit.SECONDS)).isEmpty();
            held.release();
            store.lock(name).acquire().release(); // out of turn, behind the hung head: the next acquire defers
            long hungId;
            try (Statement st = hung.createStatement(); ResultSet rs = st.executeQuery("SELECT CONNECTION_ID()")) {
                rs.next();
                hungId = rs.getLong(1);
            }
            try (Statement st = probe.createStatement()) {
                st.execute("KILL " + hungId);
            }
            Optional<Lease> got = store.lock(name).tryAcquire(Duration.ofSeconds(5));
            assertThat(got).as("tryAcquire(5 s) after the head's turn connection was killed, pollMaxMillis 30 s")
                    .isPresent();
            got.get().release();
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * A store took the lock through its turn with a lease it lets expire (auto-renew off, never released): the turn
     * must not outlive the lease, else the store queued behind it is let through once per {@code pollMaxMillis}
     * although the lock is free.
     */
    @Test
    void aTurnDoesNotOutliveTheLeaseTakenThroughIt() throws Exception {
        String table = Databases.uniqueTable("turnatk");
        String name = "atk:expired";
        ExecutorService threads = Executors.newCachedThreadPool();
        try (Connection probe = raw();
                LockStore holder = LockStore.open(Databases.withOptions(Databases.mysql(), "distlock.table=" + table));
                LockStore leaky = LockStore.open(Databases.withOptions(Databases.mariadb(), "distlock.table=" + table
                        + "&distlock.pollMaxMillis=500"));
                LockStore store = LockStore.open(Databases.withOptions(Databases.mariadb() + "&connectionAttributes=s",
                        "distlock.table=" + table + "&" + SLOW_POLL))) {
            Lease held = holder.lock(name).acquire();
            Future<Lease> leaked = threads.submit(() -> leaky.lock(name, io.distlock.LockOptions.defaults()
                    .withLeaseTime(Duration.ofSeconds(3)).withAutoRenew(false)).acquire());
            await().atMost(Duration.ofSeconds(20)).until(() -> turnHeld(probe, table, name)); // at the head
            Future<Optional<Lease>> waiter = threads.submit(() -> store.lock(name).tryAcquire(Duration.ofMinutes(2)));
            awaitQueued(probe, table, name);
            held.release();
            leaked.get(20, TimeUnit.SECONDS); // taken through its turn, never released: expires 3 s later
            long taken = System.nanoTime();
            Optional<Lease> got = waiter.get(60, TimeUnit.SECONDS);
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - taken);
            System.out.println("MariaDbTurnsAttackTest: the queued store took the lock " + tookMillis
                    + " ms after the 3 s lease was taken through a turn");
            assertThat(got).isPresent();
            got.get().release();
            assertThat(tookMillis).as("ms from the grant of a 3 s lease left to expire to the queued store's grant,"
                    + " pollMaxMillis 30 s").isLessThan(8000);
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * As above with a lease lost while held: an operator deletes the row of a store that took it through its turn
     * (lease 3 s, renewed every second). The renewal finds it lost: the turn must go with it.
     */
    @Test
    void aTurnGoesWithALeaseLostWhileHeld() throws Exception {
        String table = Databases.uniqueTable("turnatk");
        String name = "atk:lost";
        ExecutorService threads = Executors.newCachedThreadPool();
        try (Connection probe = raw();
                LockStore holder = LockStore.open(Databases.withOptions(Databases.mysql(), "distlock.table=" + table));
                LockStore victim = LockStore.open(Databases.withOptions(Databases.mariadb(), "distlock.table=" + table
                        + "&distlock.pollMaxMillis=500"));
                LockStore store = LockStore.open(Databases.withOptions(Databases.mariadb() + "&connectionAttributes=s",
                        "distlock.table=" + table + "&" + SLOW_POLL))) {
            Lease held = holder.lock(name).acquire();
            Future<Lease> taken = threads.submit(() -> victim.lock(name, io.distlock.LockOptions.defaults()
                    .withLeaseTime(Duration.ofSeconds(3))).acquire());
            await().atMost(Duration.ofSeconds(20)).until(() -> turnHeld(probe, table, name));
            Future<Optional<Lease>> waiter = threads.submit(() -> store.lock(name).tryAcquire(Duration.ofMinutes(2)));
            awaitQueued(probe, table, name);
            held.release();
            Lease lost = taken.get(20, TimeUnit.SECONDS);
            try (PreparedStatement ps = probe.prepareStatement("DELETE FROM " + table + " WHERE name = ?")) {
                ps.setString(1, name);
                assertThat(ps.executeUpdate()).as("the operator's delete").isEqualTo(1);
            }
            long deleted = System.nanoTime();
            Optional<Lease> got = waiter.get(60, TimeUnit.SECONDS);
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - deleted);
            System.out.println("MariaDbTurnsAttackTest: the queued store took the lock " + tookMillis
                    + " ms after the operator deleted the row of a lease held through a turn");
            assertThat(got).isPresent();
            got.get().release();
            assertThat(tookMillis).as("ms from the delete to the queued store's grant, pollMaxMillis 30 s")
                    .isLessThan(8000);
            assertThat(lost.isValid()).isFalse();
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * A waiter queued behind a hung turn holder for a few of its polls leaves: its store's worker must stop queueing
     * at the end of its current wait in GET_LOCK (at most 5 s), not go on queueing, a thread and a connection, for as
     * long as the other client keeps the turn lock.
     */
    @Test
    void aWorkerWhoseWaiterLeftStopsQueueing() throws Exception {
        String table = Databases.uniqueTable("turnatk");
        String name = "atk:left";
        try (Connection hung = raw();
                LockStore holder = LockStore.open(Databases.withOptions(Databases.mysql(), "distlock.table=" + table));
                LockStore store = LockStore.open(Databases.withOptions(Databases.mariadb(), "distlock.table=" + table
                        + "&distlock.pollMaxMillis=300"))) {
            holdTurn(hung, table, name);
            Lease held = holder.lock(name).acquire();
            assertThat(store.lock(name).tryAcquire(Duration.ofMillis(1500))).isEmpty(); // a few safety polls
            long left = System.nanoTime();
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> !queuedFor(hung,
                    table, name));
            long stoppedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - left);
            System.out.println("MariaDbTurnsAttackTest: the worker stopped queueing " + stoppedMillis
                    + " ms after its waiter left");
            assertThat(stoppedMillis).as("ms from the waiter's leaving to the worker's last wait in GET_LOCK")
                    .isLessThan(8000);
            held.release();
        }
    }

    /** Whether a worker waits in GET_LOCK for the turn lock of {@code name}. */
    private static boolean queuedFor(Connection c, String table, String name) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                + " WHERE STATE = 'User lock' AND INFO LIKE ?")) {
            ps.setString(1, "%" + turnKey(table, name) + "%");
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        }
    }

    /**
     * Names of any text (an emoji, a NUL, the longest name) take turns like any other, and the same table and name
     * in two databases of one server get turn locks of their own: a turn in one never queues the other's stores.
     */
    @Test
    void oddNamesTakeTurnsAndTwoDatabasesDoNotShareTurnLocks() throws Exception {
        String table = Databases.uniqueTable("turnatk");
        String other = ("dl_turnatk_" + java.util.UUID.randomUUID().toString().substring(0, 8));
        ExecutorService threads = Executors.newCachedThreadPool();
        try (Connection probe = raw(); Statement s = probe.createStatement()) {
            s.execute("CREATE DATABASE " + other);
            try {
                String here = Databases.withOptions(Databases.mariadb(), "distlock.table=" + table + "&" + SLOW_POLL);
                String there = Databases.mariadb().replaceFirst("/test\\?", "/" + other + "?")
                        + "&distlock.table=" + table + "&" + SLOW_POLL;
                for (String name : List.of("atk:\uD83D\uDD12", "atk:a\u0000b", "x".repeat(255))) {
                    try (LockStore holder = LockStore.open(Databases.withOptions(Databases.mysql(),
                            "distlock.table=" + table)); LockStore a = LockStore.open(here);
                            LockStore b = LockStore.open(there); LockStore c = LockStore.open(there
                                    + "&connectionAttributes=c")) {
                        Lease held = holder.lock(name).acquire();
                        Future<Optional<Lease>> waiter = threads.submit(() -> a.lock(name)
                                .tryAcquire(Duration.ofMinutes(1)));
                        await().atMost(Duration.ofSeconds(20)).until(() -> turnHeld(probe, table, name));
                        // the same table and name in the other database: its stores take turns of their own
                        Lease thereHeld = b.lock(name).acquire();
                        Future<Optional<Lease>> thereWaiter = threads.submit(() -> c.lock(name)
                                .tryAcquire(Duration.ofMinutes(1)));
                        long released = System.nanoTime();
                        thereHeld.release();
                        Optional<Lease> thereGot = thereWaiter.get(30, TimeUnit.SECONDS);
                        assertThat(thereGot).as("the other database's waiter of %s", Arguments.quoted(name))
                                .isPresent();
                        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released))
                                .as("ms to the other database's grant of %s", Arguments.quoted(name))
                                .isLessThan(5000);
                        thereGot.get().release();
                        held.release();
                        Optional<Lease> got = waiter.get(30, TimeUnit.SECONDS);
                        assertThat(got).as("the waiter of %s", Arguments.quoted(name)).isPresent();
                        got.get().release();
                    }
                }
            } finally {
                s.execute("DROP DATABASE " + other);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * Behind a hung turn holder: a queued waiter that is interrupted throws at once, and a store closed while its
     * waiter is queued ends the wait at once and leaves no worker waiting in GET_LOCK.
     */
    @Test
    void aQueuedWaiterIsInterruptedAtOnceAndACloseEndsTheTurn() throws Exception {
        String table = Databases.uniqueTable("turnatk");
        String name = "atk:close";
        ExecutorService threads = Executors.newCachedThreadPool();
        try (Connection hung = raw();
                LockStore holder = LockStore.open(Databases.withOptions(Databases.mysql(), "distlock.table=" + table))) {
            holdTurn(hung, table, name);
            Lease held = holder.lock(name).acquire();
            LockStore store = LockStore.open(Databases.withOptions(Databases.mariadb(), "distlock.table=" + table
                    + "&" + SLOW_POLL));
            try {
                Future<Optional<Lease>> interrupted = threads.submit(() -> store.lock(name)
                        .tryAcquire(Duration.ofMinutes(2)));
                awaitQueued(hung, table, name);
                long at = System.nanoTime();
                interrupted.cancel(true);
                await().atMost(Duration.ofSeconds(10)).until(interrupted::isDone);
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - at)).as("ms to the interrupt's end")
                        .isLessThan(2000);

                Future<Optional<Lease>> closed = threads.submit(() -> store.lock(name)
                        .tryAcquire(Duration.ofMinutes(2)));
                awaitQueued(hung, table, name);
                at = System.nanoTime();
                store.close();
                try {
                    assertThat(closed.get(10, TimeUnit.SECONDS)).isEmpty();
                } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(IllegalStateException.class); // "closed"
                }
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - at)).as("ms to the close's end")
                        .isLessThan(3000);
                await().atMost(Duration.ofSeconds(3)).until(() -> !queuedFor(hung, table, name));
            } finally {
                store.close();
            }
            held.release();
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * Four stores (URLs of their own) acquire, hold 20 ms, release and acquire again at once, in a tight loop: none
     * starves, because a store that just released queues behind the others' turns instead of taking it back.
     */
    @Test
    void aClientReacquiringInATightLoopDoesNotStarveTheOthers() throws Exception {
        String table = Databases.uniqueTable("turnatk");
        String name = "atk:fair";
        int n = 4;
        ExecutorService threads = Executors.newFixedThreadPool(n);
        List<LockStore> stores = new ArrayList<>();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicIntegerArray counts = new java.util.concurrent.atomic.AtomicIntegerArray(n);
        try {
            for (int i = 0; i < n; i++) {
                stores.add(LockStore.open(Databases.withOptions(Databases.mariadb() + "&connectionAttributes=f:" + i,
                        "distlock.table=" + table)));
            }
            List<Future<?>> loops = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int me = i;
                LockStore store = stores.get(i);
                loops.add(threads.submit(() -> {
                    while (!stop.get()) {
                        Lease lease = store.lock(name).acquire();
                        java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                        lease.release();
                        counts.incrementAndGet(me);
                    }
                    return null;
                }));
            }
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(20)).until(() -> {
                int total = 0;
                for (int i = 0; i < n; i++) {
                    total += counts.get(i);
                }
                return total >= 160;
            });
            stop.set(true);
            for (Future<?> loop : loops) {
                loop.get(30, TimeUnit.SECONDS);
            }
            System.out.println("MariaDbTurnsAttackTest: acquisitions per store in a tight loop " + counts);
            int total = 0;
            int min = Integer.MAX_VALUE;
            for (int i = 0; i < n; i++) {
                total += counts.get(i);
                min = Math.min(min, counts.get(i));
            }
            assertThat(min).as("fewest acquisitions of a store, of %s (%s)", total, counts)
                    .isGreaterThanOrEqualTo(total / n / 3);
        } finally {
            stop.set(true);
            threads.shutdownNow();
            for (LockStore store : stores) {
                store.close();
            }
        }
    }
}
