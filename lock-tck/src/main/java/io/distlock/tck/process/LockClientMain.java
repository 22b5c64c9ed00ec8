package io.distlock.tck.process;

import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.tck.check.CriticalSection;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A lock client in its own JVM, driven line by line over stdin by {@link LockClientProcess}, so tests can kill or
 * pause a real holder. The first line of stdin is the store URI ({@link JvmProcess#readStoreUri}). Commands:
 * {@code acquire NAME LEASE_MS AUTORENEW}, {@code try NAME LEASE_MS AUTORENEW WAIT_MS},
 * {@code release}, {@code lead NAME LEASE_MS}, {@code work NAME ROUNDS COUNTER_FILE PAUSE_MS}, {@code exit}.
 * Replies: {@code READY}, {@code ACQUIRED token}, {@code NOT_ACQUIRED}, {@code RELEASED}, {@code LOST message},
 * {@code SECTION ...}, {@code DONE}, {@code LOST_SIGNAL token}, {@code ELECTED term}, {@code REVOKED term},
 * {@code ERROR message}. Names are URL-style encoded with %20 for spaces.
 */
public final class LockClientMain {

    private final LockStore store;
    private final String label;
    private final PrintStream out;
    private final Deque<Lease> leases = new ArrayDeque<>();

    private LockClientMain(LockStore store, String label, PrintStream out) {
        this.store = store;
        this.label = label;
        this.out = out;
    }

    /** Entry point: {@code LockClientMain LABEL}, the store URI on the first line of stdin. */
    public static void main(String[] args) throws IOException {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        if (args.length != 1) {
            out.println("ERROR usage: LockClientMain LABEL (the store URI on the first line of stdin)");
            System.exit(2);
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (LockStore store = LockStore.open(JvmProcess.readStoreUri(in))) {
            new LockClientMain(store, args[0], out).serve(in);
        } catch (RuntimeException e) {
            out.println("ERROR " + oneLine(e));
            System.exit(1);
        }
        System.exit(0);
    }

    private void serve(BufferedReader in) throws IOException {
        out.println("READY");
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.strip().split(" ");
            try {
                switch (f[0]) {
                    case "acquire" -> acquired(store.lock(decode(f[1]), options(f[2], f[3])).acquire());
                    case "try" -> tryAcquire(decode(f[1]), options(f[2], f[3]), Long.parseLong(f[4]));
                    case "permit" -> acquired(store.semaphore(decode(f[1]), Integer.parseInt(f[2]),
                            options(f[3], f[4])).acquire());
                    case "permitwork" -> permitWork(decode(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3]),
                            Long.parseLong(f[4]));
                    case "release" -> release();
                    case "lead" -> lead(decode(f[1]), options(f[2], "true"));
                    case "work" -> work(decode(f[1]), Integer.parseInt(f[2]), Path.of(f[3]), Long.parseLong(f[4]));
                    case "exit" -> {
                        return;
                    }
                    default -> out.println("ERROR unknown command " + f[0]);
                }
            } catch (InterruptedException e) {
                out.println("ERROR interrupted");
                return;
            } catch (RuntimeException e) {
                out.println("ERROR " + oneLine(e));
            }
        }
    }

    private static LockOptions options(String leaseMillis, String autoRenew) {
        return LockOptions.defaults().withLeaseTime(Duration.ofMillis(Long.parseLong(leaseMillis)))
                .withAutoRenew(Boolean.parseBoolean(autoRenew));
    }

    private void tryAcquire(String name, LockOptions options, long waitMillis) throws InterruptedException {
        Optional<Lease> lease = store.lock(name, options).tryAcquire(Duration.ofMillis(waitMillis));
        if (lease.isPresent()) {
            acquired(lease.get());
        } else {
            out.println("NOT_ACQUIRED");
        }
    }

    private void acquired(Lease lease) {
        leases.push(lease);
        long token = lease.fencingToken();
        lease.onLost(e -> out.println("LOST_SIGNAL " + token));
        out.println("ACQUIRED " + token);
    }

    private void release() {
        Lease lease = leases.poll();
        if (lease == null) {
            out.println("ERROR nothing to release");
            return;
        }
        try {
            lease.release();
            out.println("RELEASED");
        } catch (io.distlock.LockLostException e) {
            out.println("LOST " + oneLine(e));
        }
    }

    /** Campaigns for leadership {@code name}; replies {@code ELECTED term} and {@code REVOKED term}. */
    private void lead(String name, LockOptions options) {
        store.leadership(name, options, new io.distlock.LeadershipListener() {
            @Override
            public void elected(Lease term) {
                out.println("ELECTED " + term.fencingToken());
            }

            @Override
            public void revoked(Lease term) {
                out.println("REVOKED " + term.fencingToken());
            }
        });
    }

    private void work(String name, int rounds, Path counterFile, long pauseMillis) throws InterruptedException {
        FileCounter counter = new FileCounter(counterFile);
        for (int i = 0; i < rounds; i++) {
            try (Lease lease = store.lock(name).acquire()) {
                long enter = System.nanoTime();
                counter.slowIncrement(Duration.ofMillis(pauseMillis));
                long exit = System.nanoTime();
                out.println(new CriticalSection(name, label, enter, exit, lease.fencingToken()).toLine());
            }
        }
        out.println("DONE");
    }

    private void permitWork(String name, int permits, int rounds, long pauseMillis) throws InterruptedException {
        for (int i = 0; i < rounds; i++) {
            try (Lease lease = store.semaphore(name, permits).acquire()) {
                long enter = System.nanoTime();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(pauseMillis)); // the work done under the permit
                long exit = System.nanoTime();
                out.println(new CriticalSection(name, label, enter, exit, lease.fencingToken()).toLine());
            }
        }
        out.println("DONE");
    }

    /** Encodes a lock name for the command line: spaces and percent signs escaped. */
    static String encode(String name) {
        return name.replace("%", "%25").replace(" ", "%20").replace("\n", "%0A");
    }

    private static String decode(String name) {
        return name.replace("%0A", "\n").replace("%20", " ").replace("%25", "%");
    }

    private static String oneLine(Throwable e) {
        return (e.getClass().getSimpleName() + ": " + e.getMessage()).replace('\n', ' ');
    }
}
