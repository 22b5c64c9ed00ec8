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
