package io.distlock.cli.demo;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.LockLostException;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.DistributedSemaphore;
import io.distlock.cli.Logging;
import io.distlock.tck.process.JvmProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One demo "service": a separate JVM that the demo drives line by line over stdin/stdout (tab-separated), so the
 * contenders really are different processes sharing only the lock store and the files.
 *
 * <p>The first line in is the store URI (it travels on stdin, never on the command line, so a password never shows
 * in {@code ps}); the worker answers {@code READY} once it has opened the store. Commands in:
 * {@code SPEND lock? lockName counterFile amount pauseMs} (answers {@code ARMED}, waits for {@code GO}, then answers
 * {@code DONE ok|refused seen token}), {@code HOLD lockName leaseMs} (answers {@code HELD token}, waits for
 * {@code WRITE jdbcUrl table value}, then answers {@code WROTE plain fenced} and, once it has released,
 * {@code DONE releaseOutcome}),
 * {@code SCHEDULE lock? lockName journal ticks periodMs skewMs jobMs minHeldMs startAtEpochMs} (runs this service's
 * timer, answers {@code DONE ran skipped}), {@code TAKE lockName maxWaitMs jdbcUrl table value} (answers
 * {@code DONE token waitedMs plain fenced}), {@code CALL semaphore? semaphoreName apiFile limit calls callMs} (answers
 * {@code ARMED}, waits for {@code GO}, makes its calls to the {@link RateLimitedApi}, each inside a permit of the
 * semaphore or not, then answers {@code DONE calls overLimit waitedMs tokens}) and {@code QUIT}. The writes go to the
 * {@link SqlRecords} of {@code table}: the plain record as is, the fenced one through {@code SqlFence} with the lease's
 * token. Any failure is answered {@code ERROR message}.
 */
public final class DemoWorker {

    static final String SEP = "\t";

    private final BufferedReader in;
    private final PrintStream out;
    private final String label;
    private LockStore store;

    private DemoWorker(BufferedReader in, PrintStream out, String label) {
        this.in = in;
        this.out = out;
        this.label = label;
    }

    /** Runs a worker named {@code args[0]} until {@code QUIT} or end of input. */
    public static void main(String[] args) throws IOException {
        Logging.quietByDefault();
        Logging.oneLineRecords();
        String label = args.length > 0 ? args[0] : "service";
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        new DemoWorker(in, out, label).serve();
        System.exit(0);
    }

    private void serve() throws IOException {
        if (!openStore()) {
            return;
        }
        try {
            String line;
            while ((line = in.readLine()) != null) {
                String[] cmd = line.split(SEP, -1);
                if (cmd[0].equals("QUIT")) {
                    break;
                }
                try {
                    handle(cmd);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    reply("ERROR", "interrupted");
                    return;
                } catch (RuntimeException e) {
                    e.printStackTrace();
                    reply("ERROR", e.getClass().getSimpleName() + ": " + oneLine(e.getMessage()));
                }
            }
        } finally {
            store.close();
        }
    }

    /** Opens the store whose URI is the first line in, and answers READY (or ERROR). */
    private boolean openStore() throws IOException {
        try {
            store = LockStore.open(JvmProcess.readStoreUri(in));
        } catch (RuntimeException e) {
            e.printStackTrace();
            reply("ERROR", e.getClass().getSimpleName() + ": " + oneLine(e.getMessage()));
            return false;
        }
        reply("READY");
        return true;
    }

    private void handle(String[] cmd) throws IOException, InterruptedException {
        switch (cmd[0]) {
            case "SPEND" -> spend(Boolean.parseBoolean(cmd[1]), cmd[2], Path.of(cmd[3]), Long.parseLong(cmd[4]),
                    Long.parseLong(cmd[5]));
            case "HOLD" -> hold(cmd[1], Long.parseLong(cmd[2]));
            case "SCHEDULE" -> schedule(Boolean.parseBoolean(cmd[1]), cmd[2], Path.of(cmd[3]), Integer.parseInt(cmd[4]),
                    Long.parseLong(cmd[5]), Long.parseLong(cmd[6]), Long.parseLong(cmd[7]), Long.parseLong(cmd[8]),
                    Long.parseLong(cmd[9]));
            case "TAKE" -> take(cmd[1], Long.parseLong(cmd[2]), new SqlRecords(cmd[3], cmd[4]), cmd[5]);
            case "CALL" -> call(Boolean.parseBoolean(cmd[1]), cmd[2], new RateLimitedApi(Path.of(cmd[3])),
                    Integer.parseInt(cmd[4]), Integer.parseInt(cmd[5]), Long.parseLong(cmd[6]));
            default -> reply("ERROR", "unknown command " + cmd[0]);
        }
    }

    /** Check "enough left?", pause (the service's work), then subtract: with or without the lock around it. */
    private void spend(boolean useLock, String lockName, Path counterFile, long amount, long pauseMs)
            throws IOException, InterruptedException {
        SharedCounter counter = new SharedCounter(counterFile);
        reply("ARMED");
        awaitLine("GO");
        if (!useLock) {
            reply(spendUnlocked(counter, amount, pauseMs, 0));
            return;
        }
        Optional<Lease> lease = store.lock(lockName).tryAcquire(Duration.ofSeconds(60));
        if (lease.isEmpty()) {
            reply("ERROR", label + " waited 60 s for lock " + lockName + " without getting it");
            return;
        }
        String[] result;
        try (Lease held = lease.get()) {
            result = spendUnlocked(counter, amount, pauseMs, held.fencingToken());
        } // released before answering: a lease lost meanwhile is reported as an ERROR, not hidden behind DONE
        reply(result);
    }

    private static String[] spendUnlocked(SharedCounter counter, long amount, long pauseMs, long token)
            throws InterruptedException {
        long seen = counter.get();
        if (seen < amount) {
            return new String[] {"DONE", "refused", Long.toString(seen), Long.toString(token)};
        }
        Thread.sleep(pauseMs); // the service's own work between its check and its write: widens the race window
        counter.subtract(amount);
        return new String[] {"DONE", "ok", Long.toString(seen), Long.toString(token)};
    }

    /** Takes the lock with a short lease and no renewal, then writes late when told (after being paused). */
    private void hold(String lockName, long leaseMs) throws IOException {
        LockOptions options = LockOptions.defaults().withLeaseTime(Duration.ofMillis(leaseMs)).withAutoRenew(false);
        Optional<Lease> taken = store.lock(lockName, options).tryAcquire();
        if (taken.isEmpty()) {
            reply("ERROR", lockName + " is already held by someone else");
            return;
        }
        Lease lease = taken.get();
        reply("HELD", Long.toString(lease.fencingToken()));
        String[] write = awaitLine("WRITE");
        SqlRecords records = new SqlRecords(write[1], write[2]);
        String value = write[3];
        // a real service resumed from a pause does not know it was paused: it goes on with its old token
        String plain = records.writePlain(value);
        String fenced = records.writeFenced(lockName, lease.fencingToken(), value);
        reply("WROTE", plain, fenced);
        String released;
        try {
            lease.release();
            released = "released normally";
        } catch (LockLostException e) {
            released = "LockLostException (the lease was lost while it was frozen)";
        }
        reply("DONE", released);
    }

    /** Waits for the lock, then writes with its own token. */
    private void take(String lockName, long maxWaitMs, SqlRecords records, String value)
            throws InterruptedException {
        long start = System.nanoTime();
        Optional<Lease> taken = store.lock(lockName).tryAcquire(Duration.ofMillis(maxWaitMs));
        long waitedMs = (System.nanoTime() - start) / 1_000_000;
        if (taken.isEmpty()) {
            reply("ERROR", label + " waited " + waitedMs + " ms for " + lockName + " without getting it");
            return;
        }
        long token;
        String plain;
        String fenced;
        try (Lease lease = taken.get()) {
            token = lease.fencingToken();
            plain = records.writePlain(value);
            fenced = records.writeFenced(lockName, token, value);
        }
        reply("DONE", Long.toString(token), Long.toString(waitedMs), plain, fenced);
    }

    /** Calls the rate-limited API {@code calls} times in a row, each call inside a permit of the semaphore or not. */
    private void call(boolean useSemaphore, String semaphoreName, RateLimitedApi api, int limit, int calls,
            long callMs) throws IOException, InterruptedException {
        DistributedSemaphore semaphore = useSemaphore ? store.semaphore(semaphoreName, limit) : null;
        reply("ARMED");
        awaitLine("GO");
        int overLimit = 0;
        long waitedNanos = 0;
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            if (semaphore == null) {
                overLimit += api.call(limit, callMs) ? 0 : 1;
                continue;
            }
            long start = System.nanoTime();
            Optional<Lease> permit = semaphore.tryAcquire(Duration.ofSeconds(60));
            waitedNanos += System.nanoTime() - start;
            if (permit.isEmpty()) {
                reply("ERROR", label + " waited 60 s for a permit of " + semaphoreName + " without getting one");
                return;
            }
            try (Lease held = permit.get()) {
                tokens.add(Long.toString(held.fencingToken()));
                overLimit += api.call(limit, callMs) ? 0 : 1;
            } // released before the next call: a permit lost meanwhile is reported as an ERROR, not hidden
        }
        reply("DONE", Integer.toString(calls), Integer.toString(overLimit),
                Long.toString(waitedNanos / 1_000_000), String.join(",", tokens));
    }

    /**
     * This service's timer: fires {@code ticks} times, every {@code periodMs} from {@code startAtEpochMs} plus this
     * service's {@code skewMs}, and runs the job (journal a line, work {@code jobMs}) each time: unguarded, or with
     * {@code tryRun(minHeld, job)}.
     */
    private void schedule(boolean useLock, String lockName, Path journal, int ticks, long periodMs, long skewMs,
            long jobMs, long minHeldMs, long startAtEpochMs) throws InterruptedException {
        LockedFile runs = new LockedFile(journal);
        DistributedLock lock = store.lock(lockName);
        int ran = 0;
        for (int tick = 1; tick <= ticks; tick++) {
            long fireAt = startAtEpochMs + (tick - 1) * periodMs + skewMs;
            long wait = fireAt - System.currentTimeMillis();
            if (wait > 0) {
                Thread.sleep(wait); // the service's timer
            }
            int t = tick;
            if (!useLock) {
                job(runs, t, 0, jobMs);
                ran++;
                continue;
            }
            try {
                if (lock.tryRun(Duration.ofMillis(minHeldMs), lease -> job(runs, t, lease.fencingToken(), jobMs))
                        .isPresent()) {
                    ran++;
                }
            } catch (InterruptedException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        reply("DONE", Integer.toString(ran), Integer.toString(ticks - ran));
    }

    private Boolean job(LockedFile journal, int tick, long token, long jobMs) throws InterruptedException {
        journal.update(old -> old + tick + SEP + label + SEP + token + "\n");
        Thread.sleep(jobMs); // the job's own work
        return Boolean.TRUE;
    }

    private String[] awaitLine(String command) throws IOException {
        String line = in.readLine();
        if (line == null) {
            throw new IllegalStateException("input closed while waiting for " + command);
        }
        String[] parts = line.split(SEP, -1);
        if (!parts[0].equals(command)) {
            throw new IllegalStateException("expected " + command + ", got " + parts[0]);
        }
        return parts;
    }

    private void reply(String... parts) {
        out.println(String.join(SEP, parts));
        out.flush();
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s+", " ");
    }
}
