package io.distlock.cli;

/**
 * Runs {@code distlock} as its executable jar does ({@link DistlockMain#runMain}), then logs one warning with a
 * cause through the JDK's {@link System.Logger} (as distlock's own classes do) under the logging the command set
 * up, and exits with the command's code: what {@link CliLoggingTest} reads on this process's stderr.
 */
public final class CliLoggingProbe {

    /** The warning's message. */
    static final String MESSAGE = "a warning logged under the command's logging";

    private CliLoggingProbe() {
    }

    public static void main(String[] args) {
        int code = DistlockMain.runMain(args);
        System.getLogger("io.distlock.cli.probe").log(System.Logger.Level.WARNING, MESSAGE,
                new IllegalStateException("its cause"));
        System.exit(code);
    }
}
