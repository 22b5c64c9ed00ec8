package io.distlock.cli;

/**
 * The exit codes of every {@code distlock} subcommand, so scripts can tell a failed check from a typo from a store
 * that is down.
 */
public final class ExitCodes {

    /** Everything worked and every check passed. */
    public static final int OK = 0;
    /** The command ran but a check failed (a TCK rule, a demo result, a lock that was not held). */
    public static final int CHECK_FAILED = 1;
    /** The command line was wrong: unknown option, missing argument, malformed store URI. */
    public static final int USAGE = 2;
    /** The store could not be reached. */
    public static final int STORE_UNAVAILABLE = 3;

    private ExitCodes() {
    }
}
