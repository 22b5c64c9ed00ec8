package io.distlock.chaos;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A lock client in its own JVM running the fault workload until told to stop (a line on stdin, or stdin closing):
 * acquire, fenced read, pause (the service's own work, where a SIGSTOP lands), fenced write, release, printing every
 * step as an {@link Event}. It deliberately does NOT check {@code isValid()} before writing: a real service can be
 * paused between such a check and its write, and only fencing makes that safe.
 *
 * <p>Arguments: STORE_URI LABEL LOCK_NAME REGISTER_FILE LEASE_MS WORK_MS ACQUIRE_TIMEOUT_MS.
 */
public final class ChaosWorker {

    private ChaosWorker() {
    }

    /** Entry point. */
    public static void main(String[] args) throws IOException {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        String label = args[1];
        String lockName = args[2];
        FencedRegister register = new FencedRegister(Path.of(args[3]));
        LockOptions options = LockOptions.defaults().withLeaseTime(Duration.ofMillis(Long.parseLong(args[4])));
        long workNanos = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[5]));
        Duration acquireTimeout = Duration.ofMillis(Long.parseLong(args[6]));
        AtomicBoolean stop = new AtomicBoolean();
        Thread stdin = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                while (in.readLine() != null && !stop.get()) {
                    stop.set(true);
                }
            } catch (IOException ignored) {
                // stdin closed with the parent: stop below
            }
            stop.set(true);
        }, "stdin");
        stdin.setDaemon(true);
        stdin.start();
        LockStore store = openWithRetry(args[0], out, label);
        out.println("READY");
        while (!stop.get()) {
            round(store, lockName, options, acquireTimeout, register, workNanos, label, out);
        }
        try {
            store.close();
        } catch (RuntimeException e) {
            out.println("CLOSE_FAILED " + e.getClass().getSimpleName());
        }
        out.println("STOPPED");
        System.exit(0);
    }

    private static LockStore openWithRetry(String uri, PrintStream out, String label) {
        while (true) {
            try {
                return LockStore.open(uri);
            } catch (StoreUnavailableException e) {
                emit(out, label, "OPEN_UNKNOWN", 0);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // pacing while the server is down
            }
        }
    }

    private static void round(LockStore store, String lockName, LockOptions options, Duration acquireTimeout,
            FencedRegister register, long workNanos, String label, PrintStream out) {
        emit(out, label, "ACQ_INVOKE", 0);
        Lease lease;
        try {
            Optional<Lease> got = store.lock(lockName, options).tryAcquire(acquireTimeout);
            if (got.isEmpty()) {
                emit(out, label, "ACQ_FAIL", 0);
                return;
            }
            lease = got.get();
        } catch (StoreUnavailableException e) {
            emit(out, label, "ACQ_UNKNOWN", 0);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // pacing while the store is unreachable
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        long token = lease.fencingToken();
        emit(out, label, "ACQ_OK", token);
        lease.onLost(e -> emit(out, label, "LOST_SIGNAL", token));
        FencedRegister.Read read = register.read(token);
        emit(out, label, read.accepted() ? "READ_OK" : "READ_REFUSED", token);
        if (read.accepted()) {
            LockSupport.parkNanos(workNanos); // the service's own work between read and write
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
    }

    private static void emit(PrintStream out, String label, String type, long token) {
        emit(out, label, type, token, System.nanoTime());
    }

    private static synchronized void emit(PrintStream out, String label, String type, long token, long nanos) {
        out.println(new Event(label, nanos, type, token).toLine());
    }
}
