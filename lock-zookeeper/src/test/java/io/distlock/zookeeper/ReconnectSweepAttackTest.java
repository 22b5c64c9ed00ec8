package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.ZooKeeper;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Attacks the sweep that deletes our session's unused nodes after a reconnect ({@link RevivedNodes}): while threads of
 * two stores (two sessions, one JVM) take and release locks and permits of the same names (one with escaped
 * characters), hand locks over to local waiters and extend their leases, their connections are dropped again and again
 * without the session ending (the client's socket closed under it, and now and then the server restarted), so that
 * creates lose their replies, listings race the sweep's and releases are cut off. A sweep that deleted a node in use
 * would show as a lease lost without its session ending, two holders of a lock at once (or more than the limit of a
 * semaphore), a long-held lease whose node is gone at the server, or a waiter never served within its bound; a sweep
 * that deleted too little, as a name left held once everyone released.
 *
 * <p>The premise, that no session ends, holds only while every outage is shorter than the session: Curator ends a
 * session itself once its client stayed SUSPENDED for the session timeout, and the server once it heard nothing for
 * as long. So a store's socket is closed only once the store is back from its last drop ({@link Connections}): a
 * socket closed while its client is still connecting goes unnoticed until the client's connect timeout, which for one
 * server is the whole session, so that drop alone ended the session (a clean-clone CI run: store a's, closed right
 * after a server restart). The session is 30 s, on a server that allows it (its 500 ms tick alone allows 10 s), and
 * the longest outage seen is part of every claim about the sessions.
 */
class ReconnectSweepAttackTest {

    /** Seven times the longest outage measured at load 15 to 23 (4.3 s); 10 s, 2.3 times, before. */
    private static final Duration SESSION = Duration.ofSeconds(30);
    private static final Duration CONNECTION = Duration.ofSeconds(3);
    /**
     * How long a store may take to come back from a drop on its own: the ZooKeeper client gives up on a connect after
     * its connect timeout (the session timeout divided by the servers, one here), and waits up to 2 s before each
     * attempt (1 s once it has tried every server, plus up to 1 s at random); 3 s more for a loaded machine. A wait
     * shorter than the client's own connect timeout failed before the client could report why (a CI run, 30 s).
     */
    private static final Duration BACK = SESSION.plusSeconds(5);
    /** How long a worker waits for a grant; a wait that overruns it by more than two operations is a failure. */
    private static final Duration BOUND = Duration.ofSeconds(15);
    private static final int PERMITS = 2;
    private static final int THREADS_PER_STORE = 3;
    private static final int RECONNECTS = 12;
    /** Every this many reconnects, the server restarts instead of one client's socket being closed. */
    private static final int RESTART_EVERY = 6;
    /** Reconnects back to back per store at the end of the storm. */
    private static final int BURST = 5;
    private static final List<String> NAMES = List.of("plain", "we/ird %2F n\u00e4me.");

    @ParameterizedTest(name = "chroot {0}")
    @ValueSource(strings = {"attack", "attack/nested.chroot"})
    void aReconnectStormLeavesEveryHolderItsNodeAndNoNameDoublyHeld(String chroot) throws Exception {
        try (TestingServer server = TestServers.server(SESSION)) {
            String uri = TestServers.uri(server.getConnectString(), chroot, SESSION, CONNECTION);
            try (LockStore a = BackendStores.open(uri); LockStore b = BackendStores.open(uri)) {
                List<LockStore> stores = List.of(a, b);
                assertThat(List.of(a.sessionTimeout(), b.sessionTimeout())).as("the session timeouts the server agreed")
                        .containsOnly(Optional.of(SESSION));
                long[] sessions = {TestServers.backend(a).currentSession(), TestServers.backend(b).currentSession()};
                Connections connections = new Connections(stores);
                Queue<String> failures = new ConcurrentLinkedQueue<>();
                // held across the whole storm: their nodes must still be there at the end
                Lease longLock = a.lock("long " + NAMES.get(1)).acquire();
                Lease longPermitA = a.semaphore("long", PERMITS).acquire();
                Lease longPermitB = b.semaphore("long", PERMITS).acquire();
                for (Lease lease : List.of(longLock, longPermitA, longPermitB)) {
                    lease.onLost(e -> failures.add("long-held lease of " + lease.lockName() + " lost: " + e));
                }
                Workers workers = new Workers(stores, failures);
                workers.start();
                int restarts = 0;
                long restartMs = 0;
                for (int r = 0; r < RECONNECTS; r++) {
                    int before = workers.grants.get();
                    await("grants between reconnects").atMost(Duration.ofSeconds(60))
                            .until(() -> workers.grants.get() >= before + 4 || !failures.isEmpty());
                    if (r % RESTART_EVERY == RESTART_EVERY - 1) {
                        // returns once both stores are back: none is dropped while the other reconnects
                        restartMs = Math.max(restartMs, connections.restart(server));
                        restarts++;
                    } else {
                        connections.drop(stores.get(r % 2));
                    }
                }
                // a burst: reconnects back to back, each as soon as the last one is through, on both sessions
                for (int r = 0; r < BURST; r++) {
                    for (LockStore store : stores) {
                        connections.drop(store);
                    }
                }
                int grantsAtStormEnd = workers.grants.get();
                await("grants after the storm").atMost(Duration.ofSeconds(60))
                        .until(() -> workers.grants.get() >= grantsAtStormEnd + 8 || !failures.isEmpty());
                workers.stop();

                String outage = String.format("; longest outage %d ms, longest restart %d ms, session %d s",
                        connections.longestOutageMs(), restartMs, SESSION.toSeconds());
                assertThat(TestServers.backend(a).currentSession()).as("store a's session" + outage)
                        .isEqualTo(sessions[0]);
                assertThat(TestServers.backend(b).currentSession()).as("store b's session" + outage)
                        .isEqualTo(sessions[1]);
                assertThat(failures).as("failures after %d reconnects (%d server restarts) and %d back to back, %d"
                        + " grants, %d unavailable", RECONNECTS, restarts, BURST * stores.size(), workers.grants.get(),
                        workers.unavailable.get())
                        .isEmpty();
                assertThat(List.of(longLock.isValid(), longPermitA.isValid(), longPermitB.isValid()))
                        .as("the long-held leases believe they hold").containsOnly(true);
                try (LockStore other = BackendStores.open(uri)) {
                    // their nodes are still at the server: nobody else gets the lock or a third permit
                    assertThat(other.lock("long " + NAMES.get(1)).tryAcquire(Duration.ofMillis(500)))
                            .as("the long-held lock, acquired by a third client").isEmpty();
                    assertThat(other.semaphore("long", PERMITS).tryAcquire(Duration.ofMillis(500)))
                            .as("a third permit of the long-held semaphore").isEmpty();
                    longLock.release();
                    longPermitA.release();
                    longPermitB.release();
                    // and nothing is left held by a live session that holds nothing
                    for (String name : NAMES) {
                        assertFree(other.lock(name).tryAcquire(CONNECTION.multipliedBy(2)), "lock " + name);
                        assertFree(other.semaphore(name, PERMITS).tryAcquire(CONNECTION.multipliedBy(2)),
                                "semaphore " + name);
                    }
                    assertFree(other.lock("long " + NAMES.get(1)).tryAcquire(CONNECTION.multipliedBy(2)), "long");
                }
            }
        }
    }

    private static void assertFree(Optional<Lease> got, String what) {
        got.ifPresent(Lease::release);
        assertThat(got).as("%s, once every holder released", what).isPresent();
    }

    /**
     * Drops the stores' connections, each only once it is back from its last drop as Curator reports it (RECONNECTED
     * since, and the ZooKeeper client connected): {@code closeSocket} on a client that is still connecting closes a
     * socket its selector no longer watches, so the client waits for its connect timeout, the whole session with one
     * server, and Curator ends the session meanwhile. Also keeps the longest time a store stayed SUSPENDED, what
     * Curator compares with the session timeout. A store not back within BACK fails the test with what each
     * client was doing then ({@link #describe}, {@link ClientThreads}).
     */
    private static final class Connections implements ConnectionStateListener {

        private final List<LockStore> stores;
        private final Map<CuratorFramework, AtomicLong> reconnects = new ConcurrentHashMap<>();
        private final Map<CuratorFramework, Long> suspendedAt = new ConcurrentHashMap<>();
        /** When each client last reported SUSPENDED and RECONNECTED (nanoTime), for the failure message. */
        private final Map<CuratorFramework, Long> lastSuspended = new ConcurrentHashMap<>();
        private final Map<CuratorFramework, Long> lastReconnected = new ConcurrentHashMap<>();
        private final AtomicLong longestOutageMs = new AtomicLong();
        /** The reconnects of each store counted when it was last dropped (test thread only). */
        private final Map<LockStore, Long> droppedAt = new HashMap<>();

        Connections(List<LockStore> stores) {
            this.stores = stores;
            for (LockStore store : stores) {
                CuratorFramework client = TestServers.backend(store).curator();
                reconnects.put(client, new AtomicLong());
                client.getConnectionStateListenable().addListener(this);
            }
        }

        @Override
        public void stateChanged(CuratorFramework client, ConnectionState state) {
            long now = System.nanoTime();
            if (state == ConnectionState.SUSPENDED) {
                lastSuspended.put(client, now);
                suspendedAt.putIfAbsent(client, now);
                return;
            }
            if (state == ConnectionState.RECONNECTED) {
                lastReconnected.put(client, now);
                reconnects.get(client).incrementAndGet();
            }
            Long since = suspendedAt.remove(client);
            if (since != null) {
                longestOutageMs.accumulateAndGet(TimeUnit.NANOSECONDS.toMillis(now - since), Math::max);
            }
        }

        /** Closes {@code store}'s socket once it is back from its last drop. */
        void drop(LockStore store) throws Exception {
            awaitBack(store);
            droppedAt.put(store, reconnects(store));
            zooKeeper(store).getTestable().closeSocket();
        }

        /**
         * Restarts {@code server} once every store is back from its last drop, and returns once every store is back
         * from the restart; how long the restart itself took, in ms.
         */
        long restart(TestingServer server) throws Exception {
            for (LockStore store : stores) {
                awaitBack(store);
                droppedAt.put(store, reconnects(store));
            }
            long start = System.nanoTime();
            server.restart();
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            for (LockStore store : stores) {
                awaitBack(store);
            }
            return took;
        }

        long longestOutageMs() {
            return longestOutageMs.get();
        }

        private void awaitBack(LockStore store) {
            long dropped = droppedAt.getOrDefault(store, -1L);
            try {
                await("back from the last drop").atMost(BACK)
                        .until(() -> reconnects(store) > dropped && zooKeeper(store).getState().isConnected());
            } catch (ConditionTimeoutException e) {
                throw new AssertionError("store " + (stores.indexOf(store) == 0 ? "a" : "b") + " not back from its "
                        + "last drop within " + BACK + " (RECONNECTED reported since, and the ZooKeeper client "
                        + "connected); Curator ends a session SUSPENDED for " + SESSION + ". Clients now:\n"
                        + describe() + "Their threads:\n" + ClientThreads.stacks(), e);
            }
        }

        /**
         * One line per store: its session and states, and the RECONNECTED it reported, for a failure message. The
         * ZooKeeper client's state is set by its send thread and still reads CONNECTED while it sleeps before its next
         * connect (its stack tells); Curator's flag is set on the client's event thread, so a connected client whose
         * Curator is not connected had its reconnect undelivered.
         */
        private String describe() {
            StringBuilder out = new StringBuilder();
            long now = System.nanoTime();
            for (LockStore store : stores) {
                CuratorFramework client = TestServers.backend(store).curator();
                out.append(stores.indexOf(store) == 0 ? "a" : "b");
                try {
                    ZooKeeper zk = zooKeeper(store);
                    out.append(": session 0x").append(Long.toHexString(zk.getSessionId()))
                            .append(", ZooKeeper client ").append(zk.getState());
                } catch (Exception e) {
                    out.append(": no ZooKeeper client (").append(e).append(')');
                }
                out.append(", Curator connected ").append(client.getZookeeperClient().isConnected())
                        .append(", RECONNECTED ").append(reconnects(store)).append(" (")
                        .append(droppedAt.getOrDefault(store, -1L)).append(" at its last drop), last SUSPENDED ")
                        .append(agoMs(lastSuspended.get(client), now)).append(", last RECONNECTED ")
                        .append(agoMs(lastReconnected.get(client), now)).append('\n');
            }
            return out.toString();
        }

        private static String agoMs(Long at, long now) {
            return at == null ? "never" : TimeUnit.NANOSECONDS.toMillis(now - at) + " ms ago";
        }

        private long reconnects(LockStore store) {
            return reconnects.get(TestServers.backend(store).curator()).get();
        }

        private static ZooKeeper zooKeeper(LockStore store) throws Exception {
            return TestServers.backend(store).curator().getZookeeperClient().getZooKeeper();
        }
    }

    /** Threads that take and give back locks and permits, tracking which leases are valid at any moment. */
    private static final class Workers {

        private final List<LockStore> stores;
        private final Queue<String> failures;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicInteger grants = new AtomicInteger();
        private final AtomicInteger unavailable = new AtomicInteger();
        /** Valid holders now, by "lock:name" or "semaphore:name". */
        private final Map<String, AtomicInteger> holders = new ConcurrentHashMap<>();
        /** Fencing tokens handed out, by lock name: none twice. */
        private final Map<String, Set<Long>> tokens = new ConcurrentHashMap<>();
        private final ExecutorService pool;
        private final List<Future<?>> running = new ArrayList<>();

        Workers(List<LockStore> stores, Queue<String> failures) {
            this.stores = stores;
            this.failures = failures;
            this.pool = Executors.newFixedThreadPool(stores.size() * THREADS_PER_STORE);
        }

        void start() {
            for (int s = 0; s < stores.size(); s++) {
                for (int t = 0; t < THREADS_PER_STORE; t++) {
                    LockStore store = stores.get(s);
                    int seed = s * THREADS_PER_STORE + t;
                    running.add(pool.submit(() -> loop(store, seed)));
                }
            }
        }

        void stop() throws Exception {
            stop.set(true);
            pool.shutdown();
            for (Future<?> f : running) {
                f.get(BOUND.multipliedBy(3).toMillis(), TimeUnit.MILLISECONDS);
            }
        }

        private Void loop(LockStore store, int seed) throws Exception {
            for (int i = seed; !stop.get() && failures.isEmpty(); i++) {
                String name = NAMES.get(i % NAMES.size());
                boolean permit = (i / NAMES.size()) % 2 == 1;
                String key = (permit ? "semaphore:" : "lock:") + name;
                int limit = permit ? PERMITS : 1;
                long start = System.nanoTime();
                Optional<Lease> got;
                try {
                    got = permit ? store.semaphore(name, PERMITS).tryAcquire(BOUND) : store.lock(name)
                            .tryAcquire(BOUND);
                } catch (StoreUnavailableException e) {
                    unavailable.incrementAndGet();
                    continue;
                }
                long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                if (waited > BOUND.plus(CONNECTION.multipliedBy(2)).toMillis()) {
                    failures.add(key + ": a wait of " + BOUND + " took " + waited + " ms");
                }
                if (got.isEmpty()) {
                    failures.add(key + ": not granted within " + BOUND + " (holders now " + holders + ")");
                    continue;
                }
                Lease lease = got.get();
                lease.onLost(e -> failures.add(key + ": lease of token " + lease.fencingToken()
                        + " lost though no session ended: " + e.getMessage()));
                if (!tokens.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(lease.fencingToken())) {
                    failures.add(key + ": token " + lease.fencingToken() + " issued twice");
                }
                AtomicInteger count = holders.computeIfAbsent(key, k -> new AtomicInteger());
                int now = count.incrementAndGet();
                if (now > limit) {
                    failures.add(key + ": " + now + " valid holders at once (limit " + limit + ")");
                }
                grants.incrementAndGet();
                try {
                    if (i % 3 == 0) {
                        try {
                            if (!lease.extend(Duration.ofSeconds(30)) && lease.isValid()) {
                                failures.add(key + ": extend refused on a lease that believes it holds");
                            }
                        } catch (StoreUnavailableException e) {
                            unavailable.incrementAndGet();
                        }
                    }
                    Thread.onSpinWait();
                } finally {
                    count.decrementAndGet();
                    try {
                        lease.release();
                    } catch (StoreUnavailableException e) {
                        unavailable.incrementAndGet();
                    } catch (LockLostException e) {
                        failures.add(key + ": release of a lease that held until then threw " + e.getMessage());
                    }
                }
            }
            return null;
        }
    }
}
