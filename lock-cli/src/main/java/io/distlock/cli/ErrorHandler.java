package io.distlock.cli;

import io.distlock.StoreUnavailableException;
import io.distlock.cli.demo.DemoFailure;
import io.distlock.spi.StoreUri;
import picocli.CommandLine;

/**
 * Turns what a subcommand throws into a one-line message and an exit code: an unreachable store is
 * {@link ExitCodes#STORE_UNAVAILABLE}, bad input ({@link IllegalArgumentException}) is {@link ExitCodes#USAGE}, a
 * demo that could not run (a worker died or timed out) is a failure with its reason, anything else is a failure with
 * its stack trace. Messages pass through {@link StoreUri#redact} so a password in a
 * URI never reaches the terminal.
 */
final class ErrorHandler implements CommandLine.IExecutionExceptionHandler {

    @Override
    public int handleExecutionException(Exception ex, CommandLine cli, CommandLine.ParseResult parseResult) {
        if (ex instanceof StoreUnavailableException) {
            cli.getErr().println("distlock: store unavailable: " + messageOf(ex));
            return ExitCodes.STORE_UNAVAILABLE;
        }
        if (ex instanceof DemoFailure) {
            cli.getErr().println("distlock: the demo could not run: " + messageOf(ex));
            return ExitCodes.CHECK_FAILED;
        }
        if (ex instanceof IllegalArgumentException) {
            cli.getErr().println("distlock: " + messageOf(ex));
            cli.getErr().println("Try 'distlock " + cli.getCommandName() + " --help' for more information.");
            return ExitCodes.USAGE;
        }
        cli.getErr().println("distlock: " + ex.getClass().getSimpleName() + ": " + messageOf(ex));
        ex.printStackTrace(cli.getErr());
        return ExitCodes.CHECK_FAILED;
    }

    private static String messageOf(Throwable ex) {
        StringBuilder msg = new StringBuilder(String.valueOf(ex.getMessage()));
        Throwable cause = ex.getCause();
        if (cause != null && cause.getMessage() != null && !msg.toString().contains(cause.getMessage())) {
            msg.append(" (").append(cause.getMessage()).append(')');
        }
        return StoreUri.redact(msg.toString());
    }
}
