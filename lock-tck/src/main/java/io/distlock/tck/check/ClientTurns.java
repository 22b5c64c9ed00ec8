package io.distlock.tck.check;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Who got a contended lock, in order: several threads of each client (one {@link LockStore} each) loop acquire and
 * release on one name, and each holder writes its client's number into the next slot while it holds the lock, so
 * the slots are the true order of holders. Used to check that the threads of one client do not keep a lock among
 * themselves while another client waits.
 */
public final class ClientTurns {

    private final int[] holders;

    private ClientTurns(int[] holders) {
        this.holders = holders;
    }

    /**
     * Runs {@code threadsPerClient} looping threads per client on lock {@code name} until {@code acquisitions}
     * acquisitions in all have been recorded, each holder keeping the lock about {@code holdNanos} (the work done
     * under it; 0 for none).
     *
     * @throws Exception what a loop threw, or a timeout if the run took longer than {@code timeoutSeconds}
     */
    public static ClientTurns run(List<LockStore> clients, String name, int threadsPerClient, int acquisitions,
            long holdNanos, long timeoutSeconds) throws Exception {
        int[] holders = new int[acquisitions];
        AtomicInteger next = new AtomicInteger();
        int threads = clients.size() * threadsPerClient;
        CountDownLatch allLooping = new CountDownLatch(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> loops = new ArrayList<>();
            for (int c = 0; c < clients.size(); c++) {
                int client = c;
                LockStore store = clients.get(c);
                for (int t = 0; t < threadsPerClient; t++) {
                    loops.add(pool.submit(() -> {
                        allLooping.countDown();
                        allLooping.await();
                        while (next.get() < acquisitions) {
                            try (Lease lease = store.lock(name).acquire()) {
                                int slot = next.getAndIncrement();
                                if (slot < acquisitions) {
                                    holders[slot] = client;
                                }
                                if (holdNanos > 0) {
                                    LockSupport.parkNanos(holdNanos);
                                }
                            }
                        }
                        return null;
                    }));
                }
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
            for (Future<?> loop : loops) {
                loop.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        return new ClientTurns(holders);
    }

    /** Acquisitions client {@code client} (its index in the list given to {@link #run}) made. */
    public int acquisitionsOf(int client) {
        int n = 0;
        for (int h : holders) {
            if (h == client) {
                n++;
            }
        }
        return n;
    }

    /** Times the holder's client differed from the previous holder's. */
    public int changesOfClient() {
        int n = 0;
        for (int i = 1; i < holders.length; i++) {
            if (holders[i] != holders[i - 1]) {
                n++;
            }
        }
        return n;
    }

    /** Number of acquisitions recorded. */
    public int acquisitions() {
        return holders.length;
    }

    @Override
    public String toString() {
        StringBuilder order = new StringBuilder();
        for (int h : holders) {
            order.append(h);
        }
        return holders.length + " acquisitions, " + changesOfClient() + " changes of client, per client "
                + acquisitionsOf(0) + "/" + acquisitionsOf(1) + ", order " + order;
    }
}
