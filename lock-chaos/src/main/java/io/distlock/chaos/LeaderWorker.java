package io.distlock.chaos;

import static io.distlock.chaos.ChaosWorker.emit;

import io.distlock.Leadership;
import io.distlock.LeadershipListener;
import io.distlock.Lease;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.tck.check.FencedRegister;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A campaigner in its own JVM for the leadership workload: it campaigns with {@link LockStore#leadership} and, while
 * its listener says it is elected, writes to the fenced register with its term's token at random moments (fenced
 * read, a short piece of work, fenced write of the value plus one). Like the lock worker it does NOT ask
 * {@code isLeader()} before writing: a leader frozen between that check and its write is exactly what the fence must
 * stop. On election it first presents its term to the register (a fenced read), as a leader must for fencing to
 * protect anything: a fence refuses an ended term only once it has seen a later one. Events: ELECTED and REVOKED (the
 * term was lost) or STEPPED_DOWN (closed at the end) with the term, LOST_SIGNAL (the term's lease fired onLost),
 * READ_OK, READ_REFUSED, WRITE_OK, WRITE_REFUSED, WRITE_LOST_UPDATE.
 *
 * <p>Arguments: as {@link ChaosWorker}'s (LABEL NAME REGISTER_FILE LEASE_MS HOLD_MIN_MS HOLD_MAX_MS
 * ACQUIRE_TIMEOUT_MS EXTEND_PERCENT); the hold range is the work between a leader's read and its write, and the
 * pause between two writes; the acquire timeout and extend percentage are not used.
 */
public final class LeaderWorker {

    private LeaderWorker() {
    }

    /** Entry point. */
    public static void main(String[] args) {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        String label = args[0];
        FencedRegister register = new FencedRegister(Path.of(args[2]));
        LockOptions options = LockOptions.defaults().withLeaseTime(Duration.ofMillis(Long.parseLong(args[3])));
        ChaosWorker.Workload workload = new ChaosWorker.Workload(Long.parseLong(args[4]), Long.parseLong(args[5]), 0);
        ChaosWorker.Parent parent = ChaosWorker.listen(out);
        AtomicBoolean stop = parent.stop();
        LockStore store = ChaosWorker.openWithRetry(parent.storeUri(), out, label);
        AtomicBoolean closing = new AtomicBoolean();
        Term term = new Term();
        Leadership leadership = store.leadership(args[1], options, new LeadershipListener() {
            @Override
            public void elected(Lease lease) {
                long token = lease.fencingToken();
                emit(out, label, "ELECTED", token);
                lease.onLost(e -> emit(out, label, "LOST_SIGNAL", token));
                // a new leader presents its term to the resource at once: until a term reaches the fence, the
                // fence cannot refuse the previous leader's writes
                emit(out, label, register.read(token).accepted() ? "READ_OK" : "READ_REFUSED", token);
                term.set(lease);
            }

            @Override
            public void revoked(Lease lease) {
                term.clear(lease);
                emit(out, label, closing.get() ? "STEPPED_DOWN" : "REVOKED", lease.fencingToken());
            }
        });
        out.println("READY");
        while (!stop.get()) {
            LockSupport.parkNanos(workload.holdNanos()); // the leader's own schedule: it writes at random moments
            Lease lease = term.get();
            if (lease != null) {
                write(lease.fencingToken(), register, workload, label, out);
            }
        }
        closing.set(true);
        try {
            leadership.close();
            store.close();
        } catch (RuntimeException e) {
            out.println("CLOSE_FAILED " + e.getClass().getSimpleName());
        }
        out.println("STOPPED");
        System.exit(0);
    }

    private static void write(long token, FencedRegister register, ChaosWorker.Workload workload, String label,
            PrintStream out) {
        FencedRegister.Read read = register.read(token);
        emit(out, label, read.accepted() ? "READ_OK" : "READ_REFUSED", token);
        if (!read.accepted()) {
            return;
        }
        LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(workload.holdNanos() / 2 + 1)); // the work
        long issued = System.nanoTime();
        FencedRegister.Write write = register.write(token, read.value(), read.value() + 1);
        emit(out, label, !write.accepted() ? "WRITE_REFUSED" : write.lostUpdate() ? "WRITE_LOST_UPDATE" : "WRITE_OK",
                token, issued);
    }

    /** The term the listener last announced, until it is revoked. */
    private static final class Term {
        private Lease current;

        synchronized void set(Lease lease) {
            current = lease;
        }

        synchronized void clear(Lease lease) {
            if (current == lease) {
                current = null;
            }
        }

        synchronized Lease get() {
            return current;
        }
    }
}
