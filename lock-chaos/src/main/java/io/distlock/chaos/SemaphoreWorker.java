package io.distlock.chaos;

import static io.distlock.chaos.ChaosWorker.emit;

import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.DistributedSemaphore;
import io.distlock.StoreUnavailableException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A permit holder in its own JVM for the semaphore workload: the lock worker's loop on a permit of
 * {@code store.semaphore(name, limit)} instead of the lock (acquire waiting at most the acquire timeout, hold for a
 * random time with {@code extend()} at a random moment in some holds, release, think), printing the same events
 * (ACQ_*, LOST_SIGNAL, EXT_*, REL_*). The resource it stands for is a service that allows {@code limit} callers at
 * once; the checker counts the holders at each moment from the history.
 *
 * <p>Arguments: as {@link ChaosWorker}'s, then LIMIT (the semaphore's permits). The register file is not used.
 */
public final class SemaphoreWorker {

    private SemaphoreWorker() {
    }

    /** Entry point. */
    public static void main(String[] args) {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        String label = args[0];
        LockOptions options = LockOptions.defaults().withLeaseTime(Duration.ofMillis(Long.parseLong(args[3])));
        ChaosWorker.Workload workload = new ChaosWorker.Workload(Long.parseLong(args[4]), Long.parseLong(args[5]),
                Integer.parseInt(args[7]));
        Duration acquireTimeout = Duration.ofMillis(Long.parseLong(args[6]));
        int limit = Integer.parseInt(args[8]);
        ChaosWorker.Parent parent = ChaosWorker.listen(out);
        AtomicBoolean stop = parent.stop();
        LockStore store = ChaosWorker.openWithRetry(parent.storeUri(), out, label);
        DistributedSemaphore semaphore = store.semaphore(args[1], limit, options);
        out.println("READY");
        while (!stop.get()) {
            round(semaphore, acquireTimeout, workload, options.leaseTime(), label, out);
        }
        try {
            store.close();
        } catch (RuntimeException e) {
            out.println("CLOSE_FAILED " + e.getClass().getSimpleName());
        }
        out.println("STOPPED");
        System.exit(0);
    }

    private static void round(DistributedSemaphore semaphore, Duration acquireTimeout, ChaosWorker.Workload workload,
            Duration leaseTime, String label, PrintStream out) {
        Optional<Lease> acquired = ChaosWorker.acquireRecorded(() -> semaphore.tryAcquire(acquireTimeout), label, out);
        if (acquired.isEmpty()) {
            return;
        }
        Lease permit = acquired.get();
        long token = permit.fencingToken();
        long hold = workload.holdNanos();
        long extendAt = workload.extendAtNanos(hold);
        if (extendAt >= 0) {
            LockSupport.parkNanos(extendAt); // the caller's own work before it asks for more time
            emit(out, label, "EXT_INVOKE", token);
            try {
                emit(out, label, permit.extend(leaseTime) ? "EXT_OK" : "EXT_LOST", token);
            } catch (StoreUnavailableException e) {
                emit(out, label, "EXT_UNKNOWN", token);
            }
            LockSupport.parkNanos(hold - extendAt);
        } else {
            LockSupport.parkNanos(hold); // the call to the limited service
        }
        long releasing = System.nanoTime(); // the hold ends when the holder stops acting, i.e. calls release
        try {
            permit.release();
            emit(out, label, "REL_OK", token, releasing);
        } catch (LockLostException e) {
            emit(out, label, "REL_LOST", token, releasing);
        } catch (StoreUnavailableException e) {
            emit(out, label, "REL_UNKNOWN", token, releasing);
        }
        LockSupport.parkNanos(workload.thinkNanos()); // the caller's own pause between two calls
    }
}
