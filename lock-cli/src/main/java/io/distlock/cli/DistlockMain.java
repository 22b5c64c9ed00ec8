package io.distlock.cli;

import java.io.InputStream;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Entry point of the {@code distlock} executable jar: builds the command line with its subcommands and exits with
 * the code the subcommand chose (see {@link ExitCodes}).
 */
public final class DistlockMain {

    /** Columns of the help text (picocli's default, 80, splits the example URIs). */
    static final int HELP_WIDTH = 120;

    private DistlockMain() {
    }

    /** Runs {@code distlock} with {@code args} and exits the JVM with its exit code. */
    public static void main(String[] args) {
        System.exit(runMain(args));
    }

    /** What {@link #main} does before it exits: sets up logging, runs on the standard streams, returns the code. */
    static int runMain(String[] args) {
        Logging.quiet("error");
        Logging.oneLineRecords();
        return run(System.in, new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
    }

    /**
     * Runs {@code distlock} with {@code args} on the given streams and returns its exit code; used by
     * {@link #main} and by tests.
     */
    public static int run(InputStream in, PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = newCommandLine(in);
        cli.setOut(out);
        cli.setErr(err);
        int code = cli.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /** The configured command line, reading confirmations from {@code in}. */
    static CommandLine newCommandLine(InputStream in) {
        CommandLine cli = new CommandLine(new DistlockCommand(), new CommandFactory(in));
        cli.setExecutionExceptionHandler(new ErrorHandler());
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setUsageHelpWidth(HELP_WIDTH); // wide enough that no example URI is split across lines
        return cli;
    }
}
