package io.distlock.cli;

import io.distlock.Arguments;
import io.distlock.LockAdmin;
import io.distlock.LockInfo;
import io.distlock.LockStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code distlock release --force}: breaks a stuck lock after asking for confirmation. Only the holder shown and
 * confirmed is broken ({@link LockAdmin#forceRelease(String, long)} compares its fencing token in the store): if the
 * lock changed hands meanwhile, nothing is released and the exit code is 1. The holder finds out at its next renewal
 * or release ({@link io.distlock.LockLostException}); fencing tokens keep increasing, so a resource that checks them
 * stays safe even if the old holder is still running.
 */
@Command(name = "release", mixinStandardHelpOptions = true,
        description = "Force-release a lock's current holder, as shown and confirmed (operator use only).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:released", "1:not held, not confirmed, or changed hands meanwhile",
            "2:usage error (e.g. --force missing)", "3:store unavailable"})
public final class ReleaseCommand implements Callable<Integer> {

    private final InputStream in;

    @Spec
    CommandSpec spec;

    @Mixin
    StoreUriOption store;

    @Option(names = "--force", description = "Required: confirms you mean to break another process's lock.")
    boolean force;

    @Option(names = {"-y", "--yes"}, description = "Do not ask for confirmation.")
    boolean yes;

    @Parameters(index = "0", paramLabel = "NAME", description = "The exact lock name.")
    String name;

    /** A release command reading its confirmation from {@code in}. */
    public ReleaseCommand(InputStream in) {
        this.in = in;
    }

    @Override
    public Integer call() {
        if (!force) {
            throw new ParameterException(spec.commandLine(),
                    "release breaks another process's lock: add --force to confirm you mean it");
        }
        if (name.isBlank()) {
            throw new ParameterException(spec.commandLine(), "NAME must not be blank");
        }
        PrintWriter out = spec.commandLine().getOut();
        try (LockStore opened = store.open()) {
            LockAdmin admin = opened.admin();
            Optional<LockInfo> held = held(admin);
            if (held.isEmpty()) {
                out.println("No lock named " + Arguments.quoted(name) + " is held in " + store.redacted()
                        + "; nothing released.");
                return ExitCodes.CHECK_FAILED;
            }
            LockInfo lock = held.get();
            if (!yes && !confirmed(out, lock)) {
                out.println("Not confirmed; nothing released.");
                return ExitCodes.CHECK_FAILED;
            }
            if (!admin.forceRelease(name, lock.fencingToken())) {
                Optional<LockInfo> now = held(admin);
                out.println(now.isEmpty()
                        ? "Lock " + Arguments.quoted(name)
                                + " was released by its holder in the meantime; nothing released."
                        : "Lock " + Arguments.quoted(name)
                                + " changed hands in the meantime: it is held now under fencing token "
                                + now.get().fencingToken() + " by " + Arguments.printable(now.get().owner())
                                + ", not the holder you"
                                + " confirmed (fencing token " + lock.fencingToken() + "); nothing released. Run the"
                                + " command again to release the new holder.");
                return ExitCodes.CHECK_FAILED;
            }
            out.println("Released " + Arguments.quoted(name) + " (fencing token " + lock.fencingToken() + ", held by "
                    + Arguments.printable(lock.owner())
                    + "). Its holder will see LockLostException at its next renewal or release.");
            return ExitCodes.OK;
        }
    }

    /** The lock's holder as the store lists it now, if it is held. */
    private Optional<LockInfo> held(LockAdmin admin) {
        return admin.list(name, 1000).stream().filter(l -> l.name().equals(name)).findFirst();
    }

    private boolean confirmed(PrintWriter out, LockInfo lock) {
        out.print("Release lock " + Arguments.quoted(lock.name()) + " (fencing token " + lock.fencingToken()
                + ", held by "
                + Arguments.printable(lock.owner()) + ")? [y/N] ");
        out.flush();
        try {
            String answer = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
            if (answer == null || System.console() == null) {
                out.println(); // the answer came from a pipe (or nowhere): end the prompt's line ourselves
            }
            if (answer == null) {
                return false;
            }
            String a = answer.strip().toLowerCase(Locale.ROOT);
            return a.equals("y") || a.equals("yes");
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the confirmation from standard input", e);
        }
    }
}
