package io.distlock.cli;

import io.distlock.LockStore;
import io.distlock.spi.StoreUri;
import io.distlock.tck.fixture.FreePorts;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * Checking and opening the store URIs given on the command line: a malformed URI or an unknown scheme is a usage
 * error naming the problem (exit 2), never a stack trace, and passwords are masked in every message.
 */
public final class StoreUris {

    private static final Pattern LOOPBACK_PORT =
            Pattern.compile("(//(?:[^/@?#]*@)?(?:127\\.0\\.0\\.1|localhost|\\[::1\\])):(\\d{1,5})");

    private StoreUris() {
    }

    /**
     * Checks the URI's form and that a store on the class path claims its scheme, without connecting.
     *
     * @throws ParameterException naming the problem
     */
    public static StoreUri validate(CommandLine cli, String uri) {
        StoreUri parsed;
        try {
            parsed = StoreUri.parse(uri);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cli, "--store: " + e.getMessage());
        }
        if (!LockStore.availableSchemes().contains(parsed.scheme())) {
            throw new ParameterException(cli, "--store: no distlock store for scheme '" + parsed.scheme() + "' in "
                    + parsed.redacted() + "; this build has " + LockStore.availableSchemes());
        }
        return parsed;
    }

    /**
     * Opens the store.
     *
     * @throws ParameterException if the URI is malformed or the store rejects its options
     * @throws io.distlock.StoreUnavailableException if the store cannot be reached
     */
    public static LockStore open(CommandLine cli, String uri) {
        validate(cli, uri);
        try {
            return LockStore.open(uri);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cli, "--store: " + StoreUri.redact(e.getMessage()), e);
        }
    }

    /**
     * The same URI with the port of its loopback host replaced by one nothing listens on, or null when the URI names
     * no loopback host with a port (a closed port on a remote host may be firewalled and hang instead of refusing).
     */
    public static String unreachableTwin(String uri) {
        Matcher m = LOOPBACK_PORT.matcher(uri);
        if (!m.find()) {
            return null;
        }
        return uri.substring(0, m.start()) + m.group(1) + ":" + FreePorts.next() + uri.substring(m.end());
    }
}
