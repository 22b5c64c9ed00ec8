package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** §13 The design brief's races, as two services would run them, each on its own client. */
public interface ScenarioRules extends TckSupport {

    /** An account or stock row: read and write are separate steps, as in a service that reads, decides, writes. */
    final class Row {
        private volatile int value;

        Row(int value) {
            this.value = value;
        }

        int read() {
            return value;
        }

        void write(int v) {
            value = v;
        }
    }

    @Test
    @DisplayName("§13.1 a double-clicked 7-point redemption on two services: exactly one succeeds, balance 3")
    default void rule_13_1_doubleClickRedemptionSucceedsOnce() throws Exception {
        for (int round = 0; round < 5; round++) {
            Row points = new Row(10);
            String member = tck().name("member-" + round);
            AtomicInteger redeemed = new AtomicInteger();
            List<LockStore> services = List.of(tck().client(), tck().client());
            CyclicBarrier click = new CyclicBarrier(services.size());
            ExecutorService pool = Executors.newFixedThreadPool(services.size());
            try {
                List<Future<?>> requests = new ArrayList<>();
                for (LockStore service : services) {
                    requests.add(pool.submit(() -> {
                        click.await(30, TimeUnit.SECONDS);
                        try (Lease lease = service.lock(member).acquire()) {
                            int balance = points.read();
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)); // the service's own work
                            if (balance >= 7) {
                                points.write(balance - 7);
                                redeemed.incrementAndGet();
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : requests) {
                    f.get(2, TimeUnit.MINUTES);
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(redeemed.get()).as("bookmarks redeemed in round " + round).isEqualTo(1);
            assertThat(points.read()).as("balance in round " + round).isEqualTo(3);
        }
    }

    @Test
    @DisplayName("§13.2 a flash sale of 10 items to many concurrent buyers of 1-6 units: never oversold")
    default void rule_13_2_flashSaleNeverOversold() throws Exception {
        Row stock = new Row(10);
        String item = tck().name("item");
        AtomicInteger sold = new AtomicInteger();
        List<LockStore> services = List.of(tck().client(), tck().client(), tck().client());
        int buyers = 12;
        CyclicBarrier open = new CyclicBarrier(buyers);
        ExecutorService pool = Executors.newFixedThreadPool(buyers);
        try {
            List<Future<?>> orders = new ArrayList<>();
            for (int i = 0; i < buyers; i++) {
                LockStore service = services.get(i % services.size());
                int units = 1 + i % 6;
                orders.add(pool.submit(() -> {
                    open.await(30, TimeUnit.SECONDS);
                    try (Lease lease = service.lock(item).acquire()) {
                        int left = stock.read();
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
                        if (left >= units) {
                            stock.write(left - units);
                            sold.addAndGet(units);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : orders) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(stock.read()).as("stock").isGreaterThanOrEqualTo(0);
        assertThat(sold.get() + stock.read()).as("sold + stock").isEqualTo(10);
    }
}
