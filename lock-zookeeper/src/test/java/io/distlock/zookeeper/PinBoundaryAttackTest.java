package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.zookeeper.FencePinTest.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

/**
 * A hostile review's attack on defect N3's fix ({@link FencePin}) at the edge it decides on: two stores take one name
 * back to back while an operator keeps raising its floor to a point from 6 ms behind to 6 ms ahead of the server clock
 * (a versioned {@code set}, only when that is above the last token), so stamps fall on both sides of "ahead of the
 * clock": one store's stamp makes the pin while the other's deletes it, pins and versions race, and the server deletes
 * emptied CONTAINER nodes every millisecond. Every token must be larger than every token granted before it, and once
 * the name rests, the stores (still open) leave neither parent nor pin behind. (Measured once: 2,119 lock grants, 1,670
 * of them ahead of the clock by a millisecond or more, 3,029 floors written; 1,296 permit grants, 858 ahead.)
 */
class PinBoundaryAttackTest {

    private static final Duration RUN = Duration.ofSeconds(6);
    private static final int CLIENTS = 2;
    /** How long before the clients the operator stops, so that the name's last writes are grants' stamps. */
    private static final Duration OPERATOR_STOPS_EARLY = Duration.ofMillis(500);
    /** The stores' 2 s delay, a floor at most 6 ms ahead, the server's check, and a margin for a loaded machine. */
    private static final Duration REST = Duration.ofSeconds(15);

    @Test
    void tokensKeepGrowingWhilePinsComeAndGoAtTheClock() throws Exception {
        run(Kind.LOCK);
    }

    @Test
    void permitTokensKeepGrowingWhilePinsComeAndGoAtTheClock() throws Exception {
        run(Kind.SEMAPHORE);
    }

    private static void run(Kind kind) throws Exception {
        String rate = "znode.container.maxPerMinute";
        String rateBefore = System.getProperty(rate);
        System.setProperty(rate, Integer.toString(Integer.MAX_VALUE / 2));
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS + 1);
        String name = "boundary";
        String parent = kind.parent(name);
        try (ChrootedServer zk = ChrootedServer.start("pin-boundary", Duration.ofMillis(1))) {
            List<Long> granted = new ArrayList<>(); // in grant order: appended while holding
            List<LockStore> stores = new ArrayList<>();
            try {
                for (int i = 0; i < CLIENTS; i++) {
                    stores.add(zk.open());
                }
                long end = System.nanoTime() + RUN.toNanos();
                List<Future<Integer>> runs = new ArrayList<>();
                for (LockStore store : stores) {
                    runs.add(pool.submit(() -> {
                        int n = 0;
                        while (System.nanoTime() - end < 0) {
                            Lease lease = kind == Kind.LOCK ? store.lock(name).acquire()
                                    : store.semaphore(name, 1).acquire();
                            synchronized (granted) {
                                granted.add(lease.fencingToken());
                            }
                            lease.release();
                            n++;
                        }
                        return n;
                    }));
                }
                // the operator stops first: a parent whose last write is an operator's, not a stamp, keeps the pin of
                // the stamp before it (the store's delete at its stamp's version is refused) until the next grant
                long operatorEnd = end - OPERATOR_STOPS_EARLY.toNanos();
                Future<Integer> operator = pool.submit(() -> raiseFloors(zk.raw(), parent, operatorEnd));
                for (Future<Integer> r : runs) {
                    assertThat(r.get(RUN.toSeconds() + 30, TimeUnit.SECONDS)).isPositive();
                }
                int raised = operator.get(30, TimeUnit.SECONDS);
                List<String> backwards = new ArrayList<>();
                for (int i = 1; i < granted.size(); i++) {
                    if (granted.get(i) <= granted.get(i - 1)) {
                        backwards.add("#" + i + ": " + granted.get(i - 1) + " then " + granted.get(i));
                    }
                }
                assertThat(backwards).as("%s tokens that did not grow, of %d grants, with %d floors raised up to 6 ms "
                        + "ahead of the clock", kind, granted.size(), raised).isEmpty();
                assertThat(raised).as("floors the operator raised").isPositive();
                await().atMost(REST).untilAsserted(() -> assertThat(zk.raw().checkExists().forPath(parent))
                        .as("the %s parent of '%s' (and its pin) %s after the last release, its stores open",
                                kind, name, REST).isNull());
            } finally {
                for (LockStore store : stores) {
                    store.close();
                }
            }
        } finally {
            pool.shutdownNow();
            if (rateBefore == null) {
                System.clearProperty(rate);
            } else {
                System.setProperty(rate, rateBefore);
            }
        }
    }

    /**
     * The operator: until {@code end}, raises the floor of {@code parent} to -6..6 ms off the clock whenever that is
     * above the last token its state stands for, with a {@code set} at the version read (never lowering it); answers
     * how many floors it wrote.
     */
    private static int raiseFloors(CuratorFramework raw, String parent, long end) throws Exception {
        int raised = 0;
        while (System.nanoTime() - end < 0) {
            Stat stat = new Stat();
            byte[] data;
            try {
                data = raw.getData().storingStatIn(stat).forPath(parent);
            } catch (KeeperException.NoNodeException gone) {
                continue;
            }
            long last = FenceFloor.last(data, stat.getMtime());
            long floor = System.currentTimeMillis() * 1000 + ThreadLocalRandom.current().nextLong(-6000, 6000);
            if (floor <= last) {
                continue;
            }
            try {
                raw.setData().withVersion(stat.getVersion()).forPath(parent, FenceFloor.encode(floor));
                raised++;
            } catch (KeeperException.BadVersionException | KeeperException.NoNodeException raced) {
                // a grant stamped it, or the parent went, since the read: read again
            }
        }
        return raised;
    }
}
