package io.distlock.cli;

import io.distlock.Arguments;
import io.distlock.LockInfo;
import io.distlock.LockStore;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code distlock inspect}: lists the locks held in a store, with their fencing tokens, time left and holders, then
 * the held semaphore permits where the store's admin view lists them.
 */
@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = "Show the locks (and semaphore permits) held in a store: name, fencing token, time left, owner.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:listed (possibly none)", "2:usage error", "3:store unavailable"})
public final class InspectCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    StoreUriOption store;

    @Parameters(index = "0", arity = "0..1", paramLabel = "NAME-OR-PREFIX", defaultValue = "",
            description = "Show only locks whose name starts with this (default: all).")
    String prefix;

    @Option(names = "--limit", defaultValue = "100", paramLabel = "N",
            description = "Show at most N locks (default: ${DEFAULT-VALUE}).")
    int limit;

    @Override
    public Integer call() {
        if (limit < 1) {
            throw new IllegalArgumentException("--limit must be at least 1, got " + limit);
        }
        PrintWriter out = spec.commandLine().getOut();
        try (LockStore opened = store.open()) {
            List<LockInfo> locks = opened.admin().list(prefix, limit);
            if (locks.isEmpty()) {
                out.println(prefix.isEmpty() ? "No locks held in " + store.redacted() + "."
                        : "No locks starting with " + Arguments.quoted(prefix) + " held in " + store.redacted() + ".");
            } else {
                TextTable table = new TextTable("NAME", "TOKEN", "TIME LEFT", "OWNER");
                for (LockInfo lock : locks) {
                    table.row(lock.name(), lock.fencingToken(), timeLeft(lock), lock.owner());
                }
                table.print(out, "");
                out.println(locks.size() + (locks.size() == 1 ? " lock" : " locks") + " held"
                        + (locks.size() == limit ? " (limit reached; use --limit to see more)" : "") + ".");
            }
            printPermits(opened, out);
            return ExitCodes.OK;
        }
    }

    /** Held semaphore permits, if any and if the store's admin view lists them. */
    private void printPermits(LockStore opened, PrintWriter out) {
        if (!opened.features().adminListsPermits()) {
            return; // this store's admin view lists locks only
        }
        List<LockInfo> permits = opened.admin().listPermits(prefix, limit);
        if (permits.isEmpty()) {
            return;
        }
        out.println();
        TextTable table = new TextTable("SEMAPHORE", "TOKEN", "TIME LEFT", "OWNER");
        for (LockInfo permit : permits) {
            table.row(permit.name(), permit.fencingToken(), timeLeft(permit), permit.owner());
        }
        table.print(out, "");
        out.println(permits.size() + (permits.size() == 1 ? " permit" : " permits") + " held"
                + (permits.size() == limit ? " (limit reached; use --limit to see more)" : "") + ".");
    }

    private static String timeLeft(LockInfo info) {
        return info.timeLeft() == null ? "(session)" : Durations.show(info.timeLeft());
    }
}
