package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A hostile review's attack on Z6 of lock-tck/DEFECTS.md: a name's CONTAINER parent deleted and made again as fast as
 * the server can (its container check every millisecond, no rate limit), while clients take the name back to back,
 * so that a grant, a release, the parent's deletion, a new parent and its first grant may fall within one server
 * millisecond. Every token must still be larger than every token granted before it.
 */
class RapidParentCyclesAttackTest {

    private static final Duration RUN = Duration.ofSeconds(8);
    private static final int CLIENTS = 2;

    @Test
    void tokensKeepGrowingWhileTheParentIsDeletedAndMadeAgainEveryMillisecond() throws Exception {
        run(false);
    }

    /** The same for permits of a semaphore of 1 (its parent is a CONTAINER node too, under its own root). */
    @Test
    void permitTokensKeepGrowingWhileTheParentIsDeletedAndMadeAgainEveryMillisecond() throws Exception {
        run(true);
    }

    private static void run(boolean permits) throws Exception {
        String rate = "znode.container.maxPerMinute";
        String rateBefore = System.getProperty(rate);
        System.setProperty(rate, Integer.toString(Integer.MAX_VALUE / 2));
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try (ChrootedServer zk = ChrootedServer.start("rapid-cycles", Duration.ofMillis(1))) {
            List<Long> granted = new ArrayList<>(); // in grant order: appended while holding the lock
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
                            Lease lease = permits ? store.semaphore("cycling", 1).acquire()
                                    : store.lock("cycling").acquire();
                            synchronized (granted) {
                                granted.add(lease.fencingToken());
                            }
                            lease.release();
                            n++;
                        }
                        return n;
                    }));
                }
                for (Future<Integer> run : runs) {
                    run.get(RUN.toSeconds() + 30, TimeUnit.SECONDS);
                }
            } finally {
                for (LockStore store : stores) {
                    store.close();
                }
            }
            List<String> backwards = new ArrayList<>();
            for (int i = 1; i < granted.size(); i++) {
                if (granted.get(i) <= granted.get(i - 1)) {
                    backwards.add("#" + i + ": " + granted.get(i - 1) + " then " + granted.get(i));
                }
            }
            long firstOfParent = granted.stream().filter(t -> t % 1000 == 1).count();
            System.out.println("RapidParentCycles" + (permits ? " (permits): " : ": ") + granted.size() + " grants, " + firstOfParent
                    + " tokens of the form micros(ms)+1, " + backwards.size() + " not larger than the one before");
            assertThat(backwards).as("grants (in grant order) whose token was not larger than the one before, of %s "
                    + "grants while the server deleted the emptied parent every millisecond", granted.size())
                    .isEmpty();
        } finally {
            pool.shutdownNow();
            if (rateBefore == null) {
                System.clearProperty(rate);
            } else {
                System.setProperty(rate, rateBefore);
            }
        }
    }
}
