package io.distlock.chaos;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import io.distlock.tck.check.FencedRegister;
import io.distlock.tck.process.JvmProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A lock client in its own JVM running the fault workload until told to stop (a line on stdin, or stdin closing):
 * acquire, fenced read, hold for a random time (the service's own work, where a fault lands), now and then
 * {@code extend()} at a random moment of the hold, fenced write, release, a short random think time, printing every
 * step as an {@link Event}. Holds are drawn between HOLD_MIN_MS and HOLD_MAX_MS, half uniformly and half
 * log-uniformly, so there are many short holds and many long ones. It deliberately does NOT check
 * {@code isValid()} before writing: a real service can be paused between such a check and its write, and only
 * fencing makes that safe.
 *
 * <p>The first line of stdin is the store URI (never on the command line); any later line, or the end of stdin,
 * means stop. Arguments: LABEL LOCK_NAME REGISTER_FILE LEASE_MS HOLD_MIN_MS HOLD_MAX_MS ACQUIRE_TIMEOUT_MS
 * EXTEND_PERCENT [THREADS]. With THREADS above 1, that many threads run the rounds over the one store, each with
 * its own label (LABEL.1, LABEL.2, ...), so a release can hand the lock over to a queued thread of this client.
 */
public final class ChaosWorker {

    private ChaosWorker() {
    }

    /** Entry point. */
    public static void main(String[] args) throws IOException, InterruptedException {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        String label = args[0];
        String lockName = args[1];
        FencedRegister register = new FencedRegister(Path.of(args[2]));
        LockOptions options = LockOptions.defaults().withLeaseTime(Duration.ofMillis(Long.parseLong(args[3])));
        Workload workload = new Workload(Long.parseLong(args[4]), Long.parseLong(args[5]), Integer.parseInt(args[7]));
        Duration acquireTimeout = Duration.ofMillis(Long.parseLong(args[6]));
        Parent parent = listen(out);
        AtomicBoolean stop = parent.stop();
        LockStore store = openWithRetry(parent.storeUri(), out, label);
        out.println("READY");
        int threads = args.length > 8 ? Integer.parseInt(args[8]) : 1;
        if (threads == 1) {
            loop(store, lockName, options, acquireTimeout, register, workload, label, out, stop);
        } else {
            Thread[] loops = new Thread[threads];
            for (int i = 0; i < threads; i++) {
                String threadLabel = label + "." + (i + 1);
                loops[i] = new Thread(() -> loop(store, lockName, options, acquireTimeout, register, workload,
                        threadLabel, out, stop), threadLabel);
                loops[i].start();
            }
            for (Thread loop : loops) {
                loop.join();
            }
        }
        try {
            store.close();
        } catch (RuntimeException e) {
            out.println("CLOSE_FAILED " + e.getClass().getSimpleName());
        }
        out.println("STOPPED");
        System.exit(0);
    }

    /**
     * What the parent sends a worker on stdin: the store URI, and a flag set when the parent says stop (a line) or
     * goes away (stdin closes).
     */
    record Parent(String storeUri, AtomicBoolean stop) {
    }

    /** Reads the store URI from stdin, then watches stdin for the stop. */
    static Parent listen(PrintStream out) {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String uri;
        try {
            uri = JvmProcess.readStoreUri(in);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the store URI from stdin", e);
        }
        AtomicBoolean stop = new AtomicBoolean();
        Thread stdin = new Thread(() -> {
            try (in) {
                String line = in.readLine();
                out.println(line == null ? "STDIN_CLOSED" : "STDIN_STOP " + line);
            } catch (IOException e) {
                out.println("STDIN_FAILED " + e); // the parent is gone: stop below
            }
            stop.set(true);
        }, "stdin");
        stdin.setDaemon(true);
        stdin.start();
        return new Parent(uri, stop);
    }

    /** Opens the store, retrying while it is unreachable (a server restarting). */
    static LockStore openWithRetry(String uri, PrintStream out, String label) {
        while (true) {
            try {
                return LockStore.open(uri);
            } catch (StoreUnavailableException e) {
                emit(out, label, "OPEN_UNKNOWN", 0);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // pacing while the server is down
            }
        }
    }

    private static void loop(LockStore store, String lockName, LockOptions options, Duration acquireTimeout,
            FencedRegister register, Workload workload, String label, PrintStream out, AtomicBoolean stop) {
        while (!stop.get()) {
            round(store, lockName, options, acquireTimeout, register, workload, options.leaseTime(), label, out);
        }
    }

    private static void round(LockStore store, String lockName, LockOptions options, Duration acquireTimeout,
            FencedRegister register, Workload workload, Duration leaseTime, String label, PrintStream out) {
        Optional<Lease> acquired = acquireRecorded(() -> store.lock(lockName, options).tryAcquire(acquireTimeout),
                label, out);
        if (acquired.isEmpty()) {
            return;
        }
        Lease lease = acquired.get();
        long token = lease.fencingToken();
        FencedRegister.Read read = register.read(token);
        emit(out, label, read.accepted() ? "READ_OK" : "READ_REFUSED", token);
        if (read.accepted()) {
            long hold = workload.holdNanos();
            long extendAt = workload.extendAtNanos(hold);
            if (extendAt >= 0) {
                LockSupport.parkNanos(extendAt); // the service's own work before it asks for more time
                extend(lease, leaseTime, label, out, token);
                LockSupport.parkNanos(hold - extendAt);
            } else {
                LockSupport.parkNanos(hold); // the service's own work between read and write
            }
            long issued = System.nanoTime(); // the write is stamped when issued: "stale" must mean issued late
            FencedRegister.Write write = register.write(token, read.value(), read.value() + 1);
            emit(out, label, !write.accepted() ? "WRITE_REFUSED" : write.lostUpdate() ? "WRITE_LOST_UPDATE"
                    : "WRITE_OK", token, issued);
        }
        long releasing = System.nanoTime(); // the hold ends when the holder stops acting, i.e. calls release
        try {
            lease.release();
            emit(out, label, "REL_OK", token, releasing);
        } catch (LockLostException e) {
            emit(out, label, "REL_LOST", token, releasing);
        } catch (StoreUnavailableException e) {
            emit(out, label, "REL_UNKNOWN", token, releasing);
        }
        LockSupport.parkNanos(workload.thinkNanos()); // the service's own pause between two critical sections
    }

    private static void extend(Lease lease, Duration leaseTime, String label, PrintStream out, long token) {
        emit(out, label, "EXT_INVOKE", token);
        try {
            emit(out, label, lease.extend(leaseTime) ? "EXT_OK" : "EXT_LOST", token);
        } catch (StoreUnavailableException e) {
            emit(out, label, "EXT_UNKNOWN", token);
        }
    }

    /** What a round acquires, waiting at most the round's bound: a lock or a permit. */
    @FunctionalInterface
    interface Acquisition {
        Optional<Lease> tryAcquire() throws InterruptedException;
    }

    /**
     * Acquires for one round and records it: ACQ_INVOKE, then ACQ_OK with the token (and the lease's lost signal
     * when it comes), ACQ_FAIL or ACQ_UNKNOWN (paced, the store being unreachable). Empty when there is nothing to
     * hold.
     */
    static Optional<Lease> acquireRecorded(Acquisition acquisition, String label, PrintStream out) {
        emit(out, label, "ACQ_INVOKE", 0);
        Lease lease;
        try {
            Optional<Lease> got = acquisition.tryAcquire();
            if (got.isEmpty()) {
                emit(out, label, "ACQ_FAIL", 0);
                return Optional.empty();
            }
            lease = got.get();
        } catch (StoreUnavailableException e) {
            emit(out, label, "ACQ_UNKNOWN", 0);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // pacing while the store is unreachable
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        long token = lease.fencingToken();
        emit(out, label, "ACQ_OK", token);
        lease.onLost(e -> emit(out, label, "LOST_SIGNAL", token));
        return Optional.of(lease);
    }

    static void emit(PrintStream out, String label, String type, long token) {
        emit(out, label, type, token, System.nanoTime());
    }

    static synchronized void emit(PrintStream out, String label, String type, long token, long nanos) {
        out.println(new Event(label, nanos, type, token).toLine());
    }

    /** The random shape of one worker's rounds: hold length, whether and when to extend, think time. */
    record Workload(long holdMinMillis, long holdMaxMillis, int extendPercent) {

        /** Half of the holds uniform over the range (long ones are common), half log-uniform (many short ones). */
        long holdNanos() {
            double min = Math.max(1, holdMinMillis);
            double max = Math.max(min, holdMaxMillis);
            ThreadLocalRandom random = ThreadLocalRandom.current();
            double u = random.nextDouble();
            double millis = random.nextBoolean() ? min + u * (max - min) : min * Math.exp(u * Math.log(max / min));
            return (long) (TimeUnit.MILLISECONDS.toNanos(1) * millis);
        }

        /** When to call extend() within a hold of {@code hold} nanos, or -1 for not this time. */
        long extendAtNanos(long hold) {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            return random.nextInt(100) < extendPercent ? random.nextLong(hold + 1) : -1;
        }

        long thinkNanos() {
            return TimeUnit.MILLISECONDS.toNanos(ThreadLocalRandom.current().nextLong(30));
        }
    }
}
