package io.distlock.cli.demo;

/** The demo itself could not run (a worker failed, exited or timed out): not a wrong result, a broken run. */
public final class DemoFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    DemoFailure(String message) {
        super(message);
    }

    DemoFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
