package io.distlock.spi;

/**
 * Runs a call with the thread's interrupt flag set aside and sets it again afterwards. Store clients give up on an
 * interrupted thread, so a call that must reach the store whatever the caller's flag (a release, a renewal, a single
 * attempt that does not wait) runs without it, and the caller still sees the interrupt when the call returns.
 */
public final class InterruptFlag {

    /** A call that returns a {@code T} or throws {@code X}. */
    @FunctionalInterface
    public interface Call<T, X extends Exception> {
        /** Runs the call. */
        T call() throws X;
    }

    private InterruptFlag() {
    }

    /**
     * Runs {@code call} until it returns without being interrupted, as {@link java.util.concurrent.locks.Lock#lock()}
     * must: an interrupt does not end the wait, and the flag is set again once the call returned.
     */
    public static <T> T uninterruptibly(Call<T, InterruptedException> call) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return call.call();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Runs {@code call} without the interrupt flag; a flag that was set is set again when the call ends, however. */
    public static <T, X extends Exception> T aside(Call<T, X> call) throws X {
        boolean interrupted = Thread.interrupted();
        try {
            return call.call();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
