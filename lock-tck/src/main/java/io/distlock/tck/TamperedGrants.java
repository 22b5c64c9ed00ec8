package io.distlock.tck;

import io.distlock.Lease;
import io.distlock.LockInfo;
import io.distlock.LockException;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One name of the rules of §19, a lock or a semaphore of 1, taken by single attempts on two clients while the kit
 * tampers with its fencing state: it keeps the highest token granted so far and judges every attempt against it.
 */
final class TamperedGrants {

    /** How one kind of name is taken: a lock, or a permit of a semaphore of 1. */
    interface Kind {
        /** "lock" or "semaphore", for messages. */
        String what();

        /** One attempt on {@code client}. */
        Optional<Lease> tryAcquire(LockStore client, String name);

        /** A timed wait on {@code client}. */
        Optional<Lease> tryAcquire(LockStore client, String name, Duration wait) throws InterruptedException;

        /**
         * The holders {@code client}'s admin view lists under {@code name}, or empty if that view lists none of this
         * kind ({@link io.distlock.Features}).
         */
        Optional<List<LockInfo>> holders(LockStore client, String name);
    }

    /** Deletes a name's fence state through the hook; false if the store cannot. */
    @FunctionalInterface
    interface Forget {
        boolean apply(FenceStateTampering tampering, String name) throws Exception;
    }

    /** Overwrites a name's fence state through the hook; false if the store cannot. */
    @FunctionalInterface
    interface Overwrite {
        boolean apply(FenceStateTampering tampering, String name, FenceStateTampering.ForeignValue value)
                throws Exception;
    }

    static final Kind LOCK = new Kind() {
        @Override
        public String what() {
            return "lock";
        }

        @Override
        public Optional<Lease> tryAcquire(LockStore client, String name) {
            return client.lock(name).tryAcquire();
        }

        @Override
        public Optional<Lease> tryAcquire(LockStore client, String name, Duration wait) throws InterruptedException {
            return client.lock(name).tryAcquire(wait);
        }

        @Override
        public Optional<List<LockInfo>> holders(LockStore client, String name) {
            return client.features().admin() ? Optional.of(client.admin().list(name, 10)) : Optional.empty();
        }
    };

    static final Kind SEMAPHORE = new Kind() {
        @Override
        public String what() {
            return "semaphore";
        }

        @Override
        public Optional<Lease> tryAcquire(LockStore client, String name) {
            return client.semaphore(name, 1).tryAcquire();
        }

        @Override
        public Optional<Lease> tryAcquire(LockStore client, String name, Duration wait) throws InterruptedException {
            return client.semaphore(name, 1).tryAcquire(wait);
        }

        @Override
        public Optional<List<LockInfo>> holders(LockStore client, String name) {
            return client.features().adminListsPermits() ? Optional.of(client.admin().listPermits(name, 10))
                    : Optional.empty();
        }
    };

    private final Kind kind;
    private final String name;
    private final LockStore[] clients;
    private long highest;
    private int attempts;
    private String lastClearFailure;

    TamperedGrants(Kind kind, String name, LockStore first, LockStore second) {
        this.kind = kind;
        this.name = name;
        this.clients = new LockStore[] {first, second};
    }

    /** The highest token granted so far. */
    long highest() {
        return highest;
    }

    /** Records {@code token}, granted outside this object, as one every later grant must exceed. */
    void granted(long token) {
        highest = Math.max(highest, token);
    }

    /**
     * Null if {@code failure}, the outcome of an attempt after {@code tampering}, is a clear one (a
     * {@link LockException} naming the name, no outage, no holder left in the admin view on {@code client}); else
     * what is wrong with it.
     */
    String judgeFailure(String tampering, LockStore client, Throwable failure) {
        String where = kind.what() + " '" + name + "' after " + tampering + ": ";
        String problem = judgeFailure(where, failure, true);
        return problem != null ? problem : phantomAfterFailure(where, client, failure);
    }

    /** The message of the last attempt that failed clearly, or null if none did. */
    String lastClearFailure() {
        return lastClearFailure;
    }

    /** Grants and releases before any tampering, on alternating clients, each with a larger token. */
    void grantUntouched(int times) {
        for (int i = 0; i < times; i++) {
            String problem = attempt("before any tampering", false);
            if (problem != null) {
                throw new AssertionError(problem);
            }
        }
    }

    /**
     * One single attempt on the next client after {@code tampering}, judged: null if it was granted a token above
     * every earlier one (then another client was refused while it held, and it was released) or, when
     * {@code mayFail}, if it failed at once with a {@link LockException} naming the name; else what went wrong.
     */
    String attempt(String tampering, boolean mayFail) {
        return attempt(tampering, mayFail, null);
    }

    /**
     * As {@link #attempt(String, boolean)}, but a timed wait of {@code wait} (null: a single attempt), which may take
     * {@code wait} plus promptly: a free name is granted at once, and a failure must not be waited out as "held".
     */
    String attempt(String tampering, boolean mayFail, Duration wait) {
        LockStore client = clients[attempts % 2];
        LockStore other = clients[(attempts + 1) % 2];
        attempts++;
        String call = wait == null ? "tryAcquire()" : "tryAcquire(" + wait.toMillis() + " ms)";
        String where = kind.what() + " '" + name + "' after " + tampering + ": " + call + " ";
        Duration bound = wait == null ? Tck.PROMPTLY : wait.plus(Tck.PROMPTLY);
        Optional<Lease> result;
        long start = System.nanoTime();
        try {
            result = CompletableFuture.supplyAsync(() -> {
                try {
                    return wait == null ? kind.tryAcquire(client, name) : kind.tryAcquire(client, name, wait);
                } catch (InterruptedException e) {
                    throw new CompletionException(e);
                }
            }).get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return where + "had not returned after " + bound.toMillis() + " ms (a hang)";
        } catch (ExecutionException e) {
            String problem = judgeFailure(where, e.getCause(), mayFail);
            return problem != null ? problem : phantomAfterFailure(where, client, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return where + "was interrupted";
        }
        if (result.isEmpty()) {
            return where + "was refused though no client holds it (a phantom holder)"
                    + (lastClearFailure == null ? "" : "; an earlier attempt had failed with: " + lastClearFailure);
        }
        try (Lease lease = result.get()) {
            long token = lease.fencingToken();
            if (token <= highest) {
                return where + "was granted token " + token + ", not greater than token " + highest
                        + " granted before (took " + Tck.elapsedSince(start).toMillis() + " ms)";
            }
            highest = token;
            Optional<Lease> intruder = kind.tryAcquire(other, name);
            if (intruder.isPresent()) {
                intruder.get().release();
                return where + "was granted, then another client was granted token " + intruder.get().fencingToken()
                        + " while token " + token + " held it";
            }
        } catch (RuntimeException e) {
            return where + "was granted, then its lease failed: " + e;
        }
        return null;
    }

    /** What the admin view lists as holding the name after a failed attempt, if it lists anything. */
    private String phantomAfterFailure(String where, LockStore client, Throwable failure) {
        Optional<List<LockInfo>> listed = kind.holders(client, name);
        if (listed.isEmpty()) {
            return null; // no admin view of this kind: the next attempts show a phantom holder instead
        }
        List<LockInfo> holders = listed.get().stream().filter(h -> h.name().equals(name)).toList();
        return holders.isEmpty() ? null : where + "failed (" + failure.getMessage()
                + "), yet the admin view lists a holder with no lease behind it (a phantom holder): " + holders;
    }

    private String judgeFailure(String where, Throwable failure, boolean mayFail) {
        if (!mayFail) {
            return where + "failed, but the name must keep working: " + failure;
        }
        if (failure instanceof StoreUnavailableException) {
            return where + "reported the store unavailable, though it answered (a tampered value is no outage): "
                    + failure;
        }
        if (!(failure instanceof LockException)) {
            return where + "failed with " + failure + ", not a LockException";
        }
        if (failure.getMessage() == null || !failure.getMessage().contains(name)) {
            return where + "failed with a message that does not name the " + kind.what() + ": " + failure;
        }
        lastClearFailure = failure.getMessage();
        return null;
    }
}
