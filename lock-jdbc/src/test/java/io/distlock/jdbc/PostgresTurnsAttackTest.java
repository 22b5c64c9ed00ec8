package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Attacks on PostgreSQL's aimed release notices with real stores, each on a differently written URL (its own
 * {@code ApplicationName}), so they share no in-JVM wake-ups, as stores of separate processes: with the poll pause
 * set to 30-60 s only notices wake a waiter, and each turn must come within a few seconds of the release before it,
 * across many hand-offs, after listeners were killed, and for two stores of one JVM on one URL. No two clients ever
 * hold the lock at once.
 */
@ExtendWith(Databases.class)
class PostgresTurnsAttackTest {

    private static final String SLOW_POLL = "distlock.pollMinMillis=60000&distlock.pollMaxMillis=60000";
    /** The longest a turn may take after the release before it: far under the 30-60 s poll. */
    private static final Duration TURN_BOUND = Duration.ofSeconds(5);
    private static final Duration WAIT_BOUND = Duration.ofSeconds(120);

    private final String table = Databases.uniqueTable("turns_attack");
    private final List<LockStore> opened = new ArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<Thread> waiters = new ArrayList<>();
    /** The waiter threads done with their turns. */
    private final Set<Thread> finished = ConcurrentHashMap.newKeySet();

    private final AtomicInteger holders = new AtomicInteger();
    private final AtomicLong releasedAt = new AtomicLong();
    private final AtomicLong longestTurnNanos = new AtomicLong();
    private final AtomicLong longestWaitNanos = new AtomicLong();
    private final AtomicInteger turns = new AtomicInteger();

    @AfterEach
    void closeAll() {
        threads.shutdownNow();
        opened.forEach(LockStore::close);
    }

    /** A store of its own process, as far as the others can tell: {@code process} names its URL's spelling. */
    private LockStore store(String process) {
        String postgres = Databases.postgres();
        LockStore store = LockStore.open(Databases.withOptions(postgres + (postgres.contains("?") ? "&" : "?")
                + "ApplicationName=" + process, "distlock.table=" + table + "&" + SLOW_POLL));
        opened.add(store);
        return store;
    }

    @Test
    void eightWaitingProcessesEachTakeTheirTurnsWithinSecondsOfTheReleaseBefore() throws Exception {
        LockStore holder = store("attack-holder");
        Lease held = holder.lock("turns:eight").acquire();
        List<LockStore> waiting = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            waiting.add(store("attack-" + i)); // all open before anyone waits: each hears every announcement
        }
        List<Future<?>> done = new ArrayList<>();
        for (LockStore store : waiting) {
            done.add(taking(store, "turns:eight", 3, true));
        }
        parkedAll();
        releaseNow(held);
        for (Future<?> f : done) {
            f.get(WAIT_BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        assertThat(turns.get()).isEqualTo(24);
        assertThat(Duration.ofNanos(longestTurnNanos.get())).as("the longest turn after a release of 24")
                .isLessThan(TURN_BOUND);
        assertThat(Duration.ofNanos(longestWaitNanos.get())).as("the longest wait of one client for one turn")
                .isLessThan(Duration.ofSeconds(30)); // the shortest poll: no client waited for it
        System.out.printf("eight processes: longest turn %d ms, longest wait %d ms%n",
                TimeUnit.NANOSECONDS.toMillis(longestTurnNanos.get()),
                TimeUnit.NANOSECONDS.toMillis(longestWaitNanos.get()));
    }

    /**
     * As above, with each process opened while the ones before it already wait (a fleet starting one by one): a
     * store opened after a waiter announced must still tell it of its releases.
     */
    @Test
    void processesOpenedWhileOthersWaitTellThemOfTheirReleases() throws Exception {
        LockStore holder = store("attack-holder");
        Lease held = holder.lock("turns:late").acquire();
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            done.add(taking(store("attack-late-" + i), "turns:late", 3, true));
            parkedAll(); // this one announced before the next opens
        }
        releaseNow(held);
        for (Future<?> f : done) {
            f.get(WAIT_BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        assertThat(turns.get()).isEqualTo(24);
        assertThat(Duration.ofNanos(longestTurnNanos.get())).as("the longest turn after a release of 24")
                .isLessThan(TURN_BOUND);
    }

    /**
     * Every waiting store's listener connection is killed just before the release: the notice aimed at one of them
     * is lost, and each must take its turn within seconds after it listens again, not at its poll.
     */
    @Test
    void waitersWhoseListenersWereKilledTakeTheirTurnsWithinSeconds() throws Exception {
        LockStore holder = store("attack-holder");
        Lease held = holder.lock("turns:killed").acquire();
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            done.add(taking(store("attack-killed-" + i), "turns:killed", 1, true));
        }
        parkedAll();
        assertThat(killListeners("attack-killed-%")).as("listeners killed").isEqualTo(3);
        releaseNow(held);
        for (Future<?> f : done) {
            f.get(WAIT_BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        assertThat(Duration.ofNanos(longestTurnNanos.get())).as("the longest turn after a release")
                .isLessThan(TURN_BOUND);
    }

    /**
     * Two stores of this JVM on one URL share one id and both listen on its channel; closing one leaves the other
     * told. A store on another URL holds and releases.
     */
    @Test
    void twoStoresOfOneUrlShareTheirTurnsAndOneOfThemClosing() throws Exception {
        LockStore holder = store("attack-holder");
        LockStore first = store("attack-shared");
        LockStore second = store("attack-shared");
        Lease held = holder.lock("turns:shared").acquire();
        List<Future<?>> done = new ArrayList<>();
        done.add(taking(first, "turns:shared", 2, true));
        done.add(taking(second, "turns:shared", 2, true));
        parkedAll();
        releaseNow(held);
        for (Future<?> f : done) {
            f.get(WAIT_BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        held = holder.lock("turns:shared").acquire();
        waiters.clear();
        Future<?> last = taking(second, "turns:shared", 1, false);
        parkedAll();
        first.close();
        releaseNow(held);
        last.get(WAIT_BOUND.toSeconds(), TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(longestTurnNanos.get())).as("the longest turn after a release")
                .isLessThan(TURN_BOUND);
    }

    /**
     * On a thread: {@code times} acquisitions of {@code name} in {@code store}; unless {@code othersWait} is false,
     * each held until every other waiter still taking turns is parked, so each release finds them waiting for a
     * notice.
     */
    private Future<?> taking(LockStore store, String name, int times, boolean othersWait) {
        return threads.submit(() -> {
            synchronized (waiters) {
                waiters.add(Thread.currentThread());
            }
            for (int i = 0; i < times; i++) {
                long asked = System.nanoTime();
                Optional<Lease> got = store.lock(name).tryAcquire(WAIT_BOUND);
                assertThat(got).as("acquired within %s", WAIT_BOUND).isPresent();
                long now = System.nanoTime();
                longestWaitNanos.accumulateAndGet(now - asked, Math::max);
                assertThat(holders.incrementAndGet()).as("clients holding at once").isEqualTo(1);
                turns.incrementAndGet();
                long turn = now - releasedAt.get();
                longestTurnNanos.accumulateAndGet(turn, Math::max);
                if (othersWait) {
                    othersParked();
                }
                holders.decrementAndGet();
                releasedAt.set(System.nanoTime());
                got.get().release();
            }
            finished.add(Thread.currentThread());
            return null;
        });
    }

    /** Waits until every waiter thread but this one that still takes turns is parked between two store attempts. */
    private void othersParked() {
        Thread me = Thread.currentThread();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
            synchronized (waiters) {
                return waiters.stream().filter(t -> t != me && !finished.contains(t))
                        .allMatch(PostgresTurnsAttackTest::parked);
            }
        });
    }

    private void releaseNow(Lease held) {
        releasedAt.set(System.nanoTime());
        held.release();
    }

    /** Waits until every waiter thread is parked between two store attempts. */
    private void parkedAll() {
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
            synchronized (waiters) {
                return !waiters.isEmpty() && waiters.stream().allMatch(PostgresTurnsAttackTest::parked);
            }
        });
    }

    private static boolean parked(Thread t) {
        return (t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING)
                && Arrays.stream(t.getStackTrace())
                .anyMatch(f -> f.getClassName().startsWith("io.distlock.spi.ReleaseSignals"));
    }

    /** Kills the listening connections of the stores whose application name is like {@code pattern}. */
    private int killListeners(String pattern) throws Exception {
        String channel = PostgresNotices.channel(table);
        try (Connection c = DriverManager.getConnection(Databases.postgres());
             PreparedStatement ps = c.prepareStatement("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                     + " WHERE application_name LIKE ? AND query IN (?, 'SELECT 1')")) {
            ps.setString(1, pattern);
            ps.setString(2, "LISTEN \"" + channel + "\"");
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
