package io.distlock.bench.core;

/**
 * A counting semaphore under test: its clients' {@link LockClient#acquire(String)} takes one permit of the semaphore
 * of that name, limited to {@link #permits()} holders at once, and {@link Held#release()} returns it. Only the
 * semaphore scenarios run these contenders, and the lock scenarios never do, so semaphores are compared only with
 * semaphores.
 */
public abstract class SemaphoreContender extends Contender {

    /** The limit every semaphore contender uses unless told otherwise: an API that allows 2 calls at once. */
    public static final int DEFAULT_PERMITS = 2;

    private final int permits;

    protected SemaphoreContender(String name, Role role, int permits) {
        super(name, role);
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be at least 1, got " + permits);
        }
        this.permits = permits;
    }

    /** How many permits each semaphore name allows at once. */
    public final int permits() {
        return permits;
    }

    /** True for semaphore contenders, which the lock scenarios leave out. */
    public static boolean is(Contender contender) {
        return contender instanceof SemaphoreContender;
    }
}
